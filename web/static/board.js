// The board: everything the table needs to see at a glance, redrawn from each live view.

import {byId, el, newsWatcher, renderPlayers, renderTable, soundToggle, watchView} from './common.js';

const alertOnNews = newsWatcher();

function render(view) {
  alertOnNews(view);
  byId('no-game').hidden = view.game;
  byId('game').hidden = !view.game;
  if (view.game) {
    renderTable(view);
    renderPlayers(byId('players'), view);
    renderWinner(view);
    renderPenalties(view.penalties);
    renderRounds(view.rounds);
  }
}

function renderWinner(view) {
  const banner = byId('winner');
  banner.hidden = !view.over || view.winner === null;
  banner.textContent = banner.hidden ? '' : `${view.players[view.winner]} wins the game!`;
}

// Newest first: the latest penalty is the one people look up to read.
function renderPenalties(penalties) {
  byId('penalties').replaceChildren(...[...penalties].reverse().map(penalty =>
    el('li', {'data-ref': penalty.ref, 'data-reason': penalty.reason, 'data-seat': penalty.seat}, penalty.text)));
  byId('no-penalties').hidden = penalties.length > 0;
}

function renderRounds(rounds) {
  byId('rounds').tBodies[0].replaceChildren(...rounds.map(round =>
    el('tr', {'data-round': round.round},
      el('td', {}, String(round.round)), el('td', {}, round.name), el('td', {}, String(round.points)))));
  byId('no-rounds').hidden = rounds.length > 0;
}

soundToggle(byId('sound'));
watchView(render);
