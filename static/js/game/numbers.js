// Numbers written the way the page's language writes them (`<html lang>`): "0:09,4" in
// Polish, "0:09.4" in English. Formatters are made once per language and options.

// A language the browser's Intl has no data for falls back to the next in its list instead of
// English: Chromium's reduced ICU has no Basque, whose numbers are written as in Spanish (a
// decimal comma); a browser with Basque data uses its own.
const FALLBACK = { eu: ["es"] };
const formats = new Map();

export function numberFormat(options = {}) {
  const lang = document.documentElement.lang || "en";
  const key = `${lang} ${JSON.stringify(options)}`;
  if (!formats.has(key)) {
    formats.set(key, new Intl.NumberFormat([lang, ...(FALLBACK[lang] ?? [])], options));
  }
  return formats.get(key);
}

/** The time under which a clock shows tenths of a second (and is drawn as running low). */
export const LOW_TIME_MS = 10_000;

/** A clock's time left as "m:ss", with the tenths under `LOW_TIME_MS`: "0:09,4" in Polish. */
export function formatClock(ms) {
  const clamped = Math.max(0, ms);
  const tenths = Math.floor(clamped / 100);
  const minutes = Math.floor(tenths / 600);
  const digits = clamped < LOW_TIME_MS ? 1 : 0;
  const seconds = numberFormat({
    minimumIntegerDigits: 2, minimumFractionDigits: digits, maximumFractionDigits: digits,
  }).format(digits ? (tenths % 600) / 10 : Math.floor((tenths % 600) / 10));
  return `${numberFormat().format(minutes)}:${seconds}`;
}

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** A correspondence clock's time left in the page's language, the two largest units of days,
 *  hours and minutes ("2d 3h", "2 days 3 hours" when `long`); under an hour as `formatClock`
 *  does. */
export function formatDays(ms, long = false) {
  const clamped = Math.max(0, ms);
  if (clamped < HOUR_MS) return formatClock(clamped);
  const unit = (name, value) => numberFormat({
    style: "unit", unit: name, unitDisplay: long ? "long" : "narrow",
  }).format(value);
  const days = Math.floor(clamped / DAY_MS);
  const hours = Math.floor((clamped % DAY_MS) / HOUR_MS);
  const minutes = Math.floor((clamped % HOUR_MS) / 60_000);
  if (days > 0) return hours > 0 ? `${unit("day", days)} ${unit("hour", hours)}` : unit("day", days);
  return minutes > 0 ? `${unit("hour", hours)} ${unit("minute", minutes)}` : unit("hour", hours);
}
