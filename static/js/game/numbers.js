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
