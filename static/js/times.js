// Times the server wrote in UTC (<time datetime>), said in the reader's time zone and in the
// page's language, with the reader's own conventions for it (en-GB writes the day first); the
// date filters' days, the reader's too (the form's tz).
import { LANG } from "./common.js";

const locale = navigator.languages.find((tag) => tag.split("-")[0] === LANG) || LANG;
const format = new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" });
for (const time of document.querySelectorAll("time[datetime]")) {
  time.textContent = format.format(new Date(time.dateTime));
}
for (const zone of document.querySelectorAll("form input[name=tz]")) {
  zone.value = Intl.DateTimeFormat().resolvedOptions().timeZone;
}
