// The board: everything the table needs to see at a glance, redrawn from each live view.

import {byId, el, evidenceBox, newsWatcher, renderPlayers, renderTable, soundToggle, watchView} from './common.js';
import {showEvening} from './evening.js';
import {_} from './i18n.js';
import {showRounds} from './race.js';
import {penaltyText} from './words.js';

const alertOnNews = newsWatcher();

function render(view) {
  alertOnNews(view);
  byId('no-game').hidden = view.game;
  byId('game').hidden = !view.game;
  if (view.game) {
    renderTable(view);
    renderSeen(view.top_line);
    renderPlayers(byId('players'), view);
    renderWinner(view);
    renderPenalties(view.penalties, view.players);
    renderRounds(view);
  }
  showEvening(view);
}

// The card on top as the camera saw it, for anyone who doubts the reading: shown on a tap, closed when the top
// card changes.
let topLine = null;

function renderSeen(line) {
  const seen = Boolean(line && line.seen);
  byId('seen-top').hidden = !seen;
  if (!seen || !topLine || line.ref !== topLine.ref || line.card !== topLine.card) showSeen(false);
  topLine = seen ? line : null;
}

function showSeen(open) {
  byId('seen-box').replaceChildren(...(open && topLine ? [evidenceBox(topLine)] : []));
  byId('seen-top').setAttribute('aria-expanded', String(open && Boolean(topLine)));
}

function renderWinner(view) {
  const banner = byId('winner');
  banner.hidden = !view.over || view.winner === null;
  banner.textContent = banner.hidden ? '' : _('{name} wins the game!', {name: view.players[view.winner]});
}

// Newest first: the latest penalty is the one people look up to read.
function renderPenalties(penalties, players) {
  byId('penalties').replaceChildren(...[...penalties].reverse().map(penalty =>
    el('li', {'data-ref': penalty.ref, 'data-reason': penalty.reason, 'data-seat': penalty.seat}, penaltyText(penalty, players))));
  byId('no-penalties').hidden = penalties.length > 0;
}

function renderRounds(view) {
  showRounds({chart: byId('race'), table: byId('rounds'), none: byId('no-rounds')}, view.players, view.rounds, view.target);
  byId('race-panel').hidden = view.rounds.length === 0;
}

byId('seen-top').addEventListener('click', () => showSeen(byId('seen-box').childElementCount === 0));
soundToggle(byId('sound'));
watchView(render);
