'use strict';

module.exports.data = function (context, callback) {
  const timeZone = context.params.timeZone;
  let time;
  try {
    time = new Date().toLocaleTimeString('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });
  } catch (error) {
    return callback(new Error(`Unknown time zone "${timeZone}"`));
  }
  callback(null, { timeZone, time, language: context.acceptLanguage[0] ? context.acceptLanguage[0].code : 'en' });
};
