// A past game's whole story: when and who, the score race, every round and the hands that scored it, every
// penalty with what the camera saw, each player's figures, and the record.

import {api, byId, el, showMessage} from './common.js';
import {fillFigures} from './figures.js';
import {duration, when} from './history.js';
import {_, ngettext} from './i18n.js';
import {showRounds} from './race.js';
import {describe, penaltyText} from './words.js';

const number = byId('past-game').dataset.game;

function penaltyItem(penalty, players, record) {
  const line = record[penalty.ref];
  const picture = line && line.seen
    ? el('img', {src: `/api/history/${number}/pictures/${penalty.ref}`, width: 64, height: 96, loading: 'lazy',
      alt: _('the card the camera saw at line {ref}', {ref: penalty.ref})})
    : null;
  return el('li', {'data-ref': penalty.ref, 'data-reason': penalty.reason, 'data-seat': penalty.seat},
    picture, el('span', {}, penaltyText(penalty, players)));
}

async function load() {
  const result = await api(`/api/history/${number}`);
  if (!result.ok) return showMessage(byId('game-line'), result.error);
  const game = result.data;
  byId('game-damage').hidden = !game.damaged;
  byId('game-damage').textContent = game.damaged ? _('Damaged: the record stops at {why}', {why: game.damaged}) : '';
  if (!game.players) return;
  const winner = game.winner === null ? _('not finished') : _('{name} won', {name: game.players[game.winner]});
  byId('game-line').textContent = [when(game.started), game.players.join(', '), winner,
    ngettext('{n} round', '{n} rounds', game.rounds.length), duration(game.seconds)].join(' · ');
  showRounds({chart: byId('race'), table: byId('rounds'), none: byId('no-rounds')}, game.players, game.rounds, game.target);
  const byRef = Object.fromEntries(game.record.map(line => [line.ref, line]));
  byId('penalties').replaceChildren(...game.penalties.map(penalty => penaltyItem(penalty, game.players, byRef)));
  byId('no-penalties').hidden = game.penalties.length > 0;
  fillFigures(byId('figures'), game.figures.map((figures, seat) => ({name: game.players[seat], ...figures})));
  byId('record').replaceChildren(...game.record.map(line =>
    el('li', {'data-ref': line.ref}, el('span', {class: 'ref'}, `#${line.ref}`), ' ', describe(line.event, game.players))));
}

load();
