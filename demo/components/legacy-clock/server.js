'use strict';

// Building an Intl.DateTimeFormat costs far more than using one, so each time zone's formatter is
// made once and kept (there are a few hundred zones at most; an unknown one throws and is not kept).
const formatters = new Map();

function formatterFor(timeZone) {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', minute: '2-digit' });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

module.exports.data = function (context, callback) {
  const timeZone = context.params.timeZone;
  let time;
  try {
    time = formatterFor(timeZone).format(new Date());
  } catch (error) {
    return callback(new Error(`Unknown time zone "${timeZone}"`));
  }
  callback(null, { timeZone, time, language: context.acceptLanguage[0] ? context.acceptLanguage[0].code : 'en' });
};
