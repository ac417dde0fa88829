export default ({ timeZone, time, language }) => `<time class="legacy-clock" lang="${language}">${time} (${timeZone})</time>`;
