// The score race: every player's total after each round as a line, the target drawn across, drawn here as SVG;
// and the rounds table, each row opening on the hands that made its points. Shared by the board, the host page
// and a past game's page.

import {cardElement, el} from './common.js';
import {_, ngettext} from './i18n.js';

const SVG = 'http://www.w3.org/2000/svg';
// Told apart by colour and by dash, so that a player who cannot tell red from green can still follow a line.
const LINES = ['#ffd23f', '#4cc9f0', '#f72585', '#3ddc84', '#ff8c42', '#b388ff', '#e5e5e5', '#ff5d73', '#8bd3c7', '#c0ca33'];
const DASHES = ['', '6 3', '2 3', '9 3 2 3', '', '6 3', '2 3', '9 3 2 3', '', '6 3'];
const WIDTH = 320;
const HEIGHT = 190;
const PAD = {left: 34, right: 10, top: 12, bottom: 24};

const svg = (tag, props = {}, ...children) => {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(props)) node.setAttribute(key, value);
  node.append(...children);
  return node;
};

export const lineColor = seat => LINES[seat % LINES.length];

// rounds: [{round, totals}], in order. Returns a <figure> holding the chart and its legend.
export function scoreRace(players, rounds, target) {
  const totals = [players.map(() => 0), ...rounds.map(round => round.totals)];
  const top = Math.max(target || 0, ...totals.flat(), 1);
  const x = i => PAD.left + (WIDTH - PAD.left - PAD.right) * (totals.length > 1 ? i / (totals.length - 1) : 0);
  const y = value => HEIGHT - PAD.bottom - (HEIGHT - PAD.top - PAD.bottom) * (value / top);
  const chart = svg('svg', {viewBox: `0 0 ${WIDTH} ${HEIGHT}`, class: 'race-chart', role: 'img',
    'aria-label': _('The score race: every total after each round')});
  chart.append(svg('line', {x1: PAD.left, x2: WIDTH - PAD.right, y1: y(0), y2: y(0), class: 'axis'}));
  const every = Math.max(1, Math.ceil((totals.length - 1) / 10));
  for (let i = 0; i < totals.length; i += every) {
    chart.append(svg('text', {x: x(i), y: HEIGHT - 8, class: 'tick', 'text-anchor': 'middle'}, String(i)));
  }
  for (const value of [0, top]) {
    chart.append(svg('text', {x: PAD.left - 4, y: y(value) + 4, class: 'tick', 'text-anchor': 'end'}, String(value)));
  }
  if (target) {
    chart.append(svg('line', {x1: PAD.left, x2: WIDTH - PAD.right, y1: y(target), y2: y(target), class: 'target'}),
      svg('text', {x: WIDTH - PAD.right, y: y(target) - 4, class: 'target-label', 'text-anchor': 'end'},
        _('target {n}', {n: target})));
  }
  players.forEach((name, seat) => {
    const points = totals.map((row, i) => `${x(i).toFixed(1)},${y(row[seat]).toFixed(1)}`).join(' ');
    chart.append(svg('polyline', {points, class: 'race-line', 'data-seat': seat, stroke: lineColor(seat),
      'stroke-dasharray': DASHES[seat % DASHES.length]}));
    const last = totals.length - 1;
    chart.append(svg('circle', {cx: x(last), cy: y(totals[last][seat]), r: 3, fill: lineColor(seat)}));
  });
  const legend = el('ul', {class: 'race-legend'}, ...players.map((name, seat) =>
    el('li', {'data-seat': seat},
      el('span', {class: 'key', style: `background: ${lineColor(seat)}`, 'aria-hidden': 'true'}),
      el('span', {class: 'name'}, name), ' ',
      el('span', {class: 'total'}, String(totals[totals.length - 1][seat])))));
  return el('figure', {class: 'race', 'data-rounds': rounds.length}, chart, legend);
}

// Which rounds' rows are open, by page: a live update redraws the table without closing them.
const opened = new Set();

// Fills `body` (a <tbody>) with a row per round and, under each open one, the hands laid down to score it.
export function fillRounds(body, rounds, players) {
  body.replaceChildren(...rounds.flatMap(round => {
    const open = opened.has(round.round);
    const toggle = el('button', {type: 'button', class: 'small open-round', 'aria-expanded': String(open),
      title: _('How the points were made'),
      onclick: () => { open ? opened.delete(round.round) : opened.add(round.round); fillRounds(body, rounds, players); }},
    open ? '▾' : '▸');
    const row = el('tr', {'data-round': round.round},
      el('td', {}, toggle, ' ', String(round.round)), el('td', {}, players[round.winner]), el('td', {}, String(round.points)));
    return open ? [row, handsRow(round, players)] : [row];
  }));
}

function handsRow(round, players) {
  const hands = round.hands || [];
  const items = hands.map(hand => el('li', {'data-seat': hand.seat},
    el('span', {class: 'name'}, players[hand.seat]),
    hand.cards
      ? (hand.cards.length ? el('span', {class: 'hand-cards'}, ...hand.cards.map(card => cardElement(card, {size: 'tiny'})))
        : el('span', {class: 'muted'}, _('no cards left')))
      : el('span', {class: 'muted'}, ngettext('{n} point, entered by hand', '{n} points, entered by hand', hand.points))));
  return el('tr', {class: 'round-hands', 'data-hands': round.round},
    el('td', {colspan: 3}, items.length ? el('ul', {class: 'hands'}, ...items)
      : el('p', {class: 'muted'}, _('No hand was laid down for this round.'))));
}

// The chart and the rounds table of a page, from a live view's rounds: the chart is redrawn only when a round
// is scored (or the game changes), not on every card.
const drawn = new WeakMap();

export function showRounds({chart, table, none}, players, rounds, target) {
  fillRounds(table.tBodies[0], rounds, players);
  none.hidden = rounds.length > 0;
  const key = JSON.stringify([players, target, rounds.map(round => round.totals)]);
  if (drawn.get(chart) !== key) chart.replaceChildren(...(rounds.length ? [scoreRace(players, rounds, target)] : []));
  drawn.set(chart, key);
}
