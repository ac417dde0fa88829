export const data = (context, callback) => {
  callback(null, { name: String(context.params.name || 'World') });
};
