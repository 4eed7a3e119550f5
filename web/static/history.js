// Game nights: every game the log keeps, newest first, each opening on its own page; the players' figures over
// every game or one evening; the exports.

import {api, byId, el, showMessage} from './common.js';
import {fillFigures} from './figures.js';
import {_, ngettext} from './i18n.js';

// "1 h 05 min" or "12 min": how long a game ran, from its record's clock.
export function duration(seconds) {
  const minutes = Math.round((seconds || 0) / 60);
  return minutes >= 60 ? _('{h} h {m} min', {h: Math.floor(minutes / 60), m: String(minutes % 60).padStart(2, '0')})
    : _('{m} min', {m: minutes});
}

export const when = started => new Date(started * 1000).toLocaleString(document.documentElement.lang,
  {dateStyle: 'medium', timeStyle: 'short'});

function gameItem(game) {
  const link = el('a', {href: `/history/${game.game}`}, _('Game {n}', {n: game.game}));
  if (!game.players) {
    return el('li', {'data-game': game.game, class: 'damaged'}, link, ' · ', when(game.started), ' · ', _('cannot be read'));
  }
  const winner = game.winner === null ? _('not finished') : _('{name} won', {name: game.players[game.winner]});
  return el('li', {'data-game': game.game, class: game.damaged ? 'damaged' : ''},
    el('div', {class: 'game-head'}, link, el('span', {class: 'muted'}, when(game.started))),
    el('div', {}, game.players.join(', ')),
    el('div', {class: 'muted'}, winner, ' · ', ngettext('{n} round', '{n} rounds', game.rounds), ' · ', duration(game.seconds),
      game.damaged ? ` · ${_('damaged: kept aside from the statistics')}` : ''));
}

async function showFigures() {
  const evening = byId('evening-pick').value;
  const result = await api(`/api/statistics${evening ? `?evening=${evening}` : ''}`);
  if (evening !== byId('evening-pick').value) return;  // picked again meanwhile: the later pick's figures show
  if (!result.ok) return showMessage(byId('history-message'), result.error);
  fillFigures(byId('figures'), result.data.players);
  byId('figures').dataset.evening = evening;
  byId('figures').hidden = !result.data.players.length;
  byId('no-figures').hidden = result.data.players.length > 0;
}

async function load() {
  const result = await api('/api/history');
  if (!result.ok) return showMessage(byId('history-message'), result.error);
  const {games} = result.data;
  byId('games').replaceChildren(...games.map(gameItem));
  byId('no-games').hidden = games.length > 0;
  const evenings = [...new Set(games.map(game => game.evening))];
  byId('evening-pick').append(...evenings.map(evening => el('option', {value: evening}, evening)));
  await showFigures();
}

if (byId('games')) {
  byId('evening-pick').addEventListener('change', showFigures);
  load();
}
