// The page's language: the gettext catalogue the server put in the page (see tabletop/web/language.py), read
// through `_` and `ngettext` as in Python. Messages name their values in braces: _('{name} to play', {name}).

const data = JSON.parse(document.getElementById('catalog').textContent);
// The catalogue's own plural rule, a C expression from its Plural-Forms header (Russian has three forms).
const pluralIndex = new Function('n', `return Number(${data.plural});`);

export const language = data.language;

const fill = (text, values) => text.replace(/\{(\w+)\}/g, (whole, key) => (key in values ? String(values[key]) : whole));

export function _(text, values = {}) {
  const translated = data.messages[text];
  return fill(typeof translated === 'string' && translated ? translated : text, values);
}

export function ngettext(one, many, n, values = {}) {
  const forms = data.messages[one];
  const chosen = Array.isArray(forms) && forms[pluralIndex(n)] ? forms[pluralIndex(n)] : (n === 1 ? one : many);
  return fill(chosen, {n, ...values});
}
