// What every page shares: building elements, talking to the server, the live view, drawing cards and colours,
// the players list and the full-screen alerts.

import {_, language, ngettext} from './i18n.js';
import * as sound from './sound.js';
import {keepAwake} from './wake.js';
import {cardLabel, colorName, noticeText, parseCard, penaltyHeading, penaltyText} from './words.js';

export {cardLabel, colorName, parseCard} from './words.js';

// --- elements ----------------------------------------------------------------------------------------------

// el('button', {class: 'primary', 'data-seat': 2, onclick: f}, 'text', child): props that are functions named
// on... become listeners, false/null props are left out, true ones become empty attributes.
export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (typeof value === 'function' && key.startsWith('on')) node.addEventListener(key.slice(2), value);
    else if (value === true) node.setAttribute(key, '');
    else if (value !== false && value !== null && value !== undefined) node.setAttribute(key, value);
  }
  node.append(...children.flat().filter(child => child !== null && child !== undefined && child !== false));
  return node;
}

export const byId = id => document.getElementById(id);

export function showMessage(node, text, kind = 'error') {
  node.textContent = text || '';
  node.className = `message ${text ? kind : ''}`;
}

// Replaces the children of `container` with one row per item, keeping the rows whose item has not changed:
// an editor a host has opened in a row survives the next live update.
const rowItems = new WeakMap();

export function syncList(container, items, keyOf, build) {
  const old = new Map([...container.children].map(row => [rowItems.get(row)?.key, row]));
  const rows = items.map(item => {
    const key = String(keyOf(item));
    const signature = JSON.stringify(item);
    const kept = old.get(key);
    if (kept && rowItems.get(kept).signature === signature) return kept;
    const row = build(item);
    rowItems.set(row, {key, signature});
    return row;
  });
  let at = container.firstElementChild;
  for (const row of rows) {
    if (row === at) at = at.nextElementSibling;
    else container.insertBefore(row, at);
  }
  while (at) {
    const next = at.nextElementSibling;
    at.remove();
    at = next;
  }
}

// --- the server --------------------------------------------------------------------------------------------

// Resolves to {ok, status, data, error}; `error` is the server's sentence for a refusal, never a throw.
export async function api(path, {method = 'GET', body, headers = {}, type} = {}) {
  const init = {method, headers: {...headers}};
  if (body !== undefined) {
    init.body = typeof body === 'string' ? body : JSON.stringify(body);
    init.headers['Content-Type'] = type || 'application/json';
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch {
    return {ok: false, status: 0, data: null, error: _('The scoreboard cannot be reached. Is this phone on the table’s network?')};
  }
  const data = await readBody(response);
  const error = response.ok ? null : sentence((data && data.error) || _('the scoreboard refused ({status})', {status: response.status}));
  return {ok: response.ok, status: response.status, data, error};
}

// An accepted event the referee could not use comes back with a notice (its reason a code such as
// 'not-your-turn'): the words of that reason, or null when there is none. A notice that names a seat (a draw
// nobody saw) is about another player's turn, not about the event sent.
export function noticeOf(result) {
  const notice = (result.data.verdicts || []).find(verdict => verdict.type === 'notice' && verdict.seat === undefined);
  return notice ? noticeText(notice.reason) : null;
}

const sentence = text => `${text[0].toUpperCase()}${text.slice(1)}${/[.!?]$/.test(text) ? '' : '.'}`;

async function readBody(response) {
  const text = await response.text();
  if (!text || !(response.headers.get('Content-Type') || '').includes('json')) return text || null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

// Calls onView with the board view now and after every change. EventSource reconnects by itself and sends
// Last-Event-ID, so nothing more is needed for a phone that drops off the network for a while. A server with
// all its live streams taken refuses one (503), and EventSource then gives up: this page reads the board every
// few seconds instead, and asks for a stream again a little later.
const POLL_MS = 3000;
const STREAM_AGAIN_MS = 30000;

export function watchView(show) {
  const onView = view => { keepAwake(view); show(view); };
  let streamed = false;
  const read = () => api('/api/view').then(result => {
    if (result.ok && !streamed) onView(result.data);
  });
  const connect = () => {
    const source = new EventSource('/api/stream');
    source.addEventListener('view', event => {
      streamed = true;
      onView(JSON.parse(event.data));
    });
    source.addEventListener('open', () => showConnection(true));
    source.addEventListener('error', () => {
      if (source.readyState !== EventSource.CLOSED) return showConnection(false);
      streamed = false;
      const polling = setInterval(read, POLL_MS);
      setTimeout(() => { clearInterval(polling); connect(); }, STREAM_AGAIN_MS);
    });
  };
  connect();
  read();
}

function showConnection(connected) {
  const node = byId('connection');
  if (node) node.hidden = connected;
}

// --- cards and colours -------------------------------------------------------------------------------------


const SYMBOLS = {'skip': '⊘', 'reverse': '⇄', 'draw-two': '+2', 'wild': 'WILD', 'wild-draw-four': '+4',
  'wild-shuffle-hands': '⤮', 'wild-swap-hands': '⇅', 'wild-customizable': '✎'};
const SYMBOL_FACES = new Set(['skip', 'reverse', 'wild-shuffle-hands', 'wild-swap-hands', 'wild-customizable']);

// A card drawn from its name: coloured (and patterned) body, white oval, big numeral or symbol. A null name
// (no card on the pile yet) draws a card back.
export function cardElement(name, {id, size} = {}) {
  const classes = ['card', size].filter(Boolean);
  if (!name) return el('div', {class: [...classes, 'back'].join(' '), id, 'data-card': '', role: 'img', 'aria-label': _('no card yet')});
  const {color, face} = parseCard(name);
  const symbol = SYMBOLS[face] || face;
  classes.push(color ? `c-${color}` : 'wild');
  const faceClass = ['face', face === 'wild' && 'long', SYMBOL_FACES.has(face) && 'symbol',
    (face === 'draw-two' || face === 'wild-draw-four') && 'wide',
    (face === '6' || face === '9') && 'under'].filter(Boolean).join(' ');
  const corner = face === 'wild' ? 'W' : symbol;
  return el('div', {class: classes.join(' '), id, 'data-card': name, role: 'img', 'aria-label': cardLabel(name)},
    el('span', {class: 'oval'}),
    el('span', {class: faceClass, 'aria-hidden': 'true'}, symbol),
    el('span', {class: 'corner tl', 'aria-hidden': 'true'}, corner),
    el('span', {class: 'corner br', 'aria-hidden': 'true'}, corner));
}

const percent = p => `${Math.round(p * 100)}%`;

// What the camera saw of the card at line `line.ref` (docs/api.md): its picture, what it was read as and how
// sure, and the other guesses; given `choose`, the guesses are buttons, so that a misread is put right from
// the picture itself.
export function evidenceBox(line, choose = null) {
  const {ref, seen} = line;
  const sure = percent(seen.confidence);
  const read = line.card ? _('Read as {card}: {sure} sure.', {card: cardLabel(line.card), sure}) : _('Not read surely: {sure} sure.', {sure});
  const others = seen.guesses.filter(([card]) => card !== line.card);
  const guessButton = ([card, p]) => el('button', {type: 'button', class: 'guess', 'data-card': card, onclick: () => choose(card)},
    cardElement(card, {size: 'tiny'}), el('span', {}, cardLabel(card)), el('span', {class: 'confidence'}, percent(p)));
  return el('div', {class: 'evidence', 'data-ref': ref},
    el('img', {src: `/api/pictures/${ref}`, alt: _('the card the camera saw at line {ref}', {ref}), width: 96, height: 144}),
    el('div', {class: 'evidence-words'},
      el('p', {class: 'read'}, read),
      !others.length ? null
        : choose ? el('div', {}, el('p', {class: 'muted'}, _('It was really:')), el('div', {class: 'guesses'}, ...others.map(guessButton)))
          : el('p', {class: 'muted'}, _('Also thought of: {guesses}.', {guesses: others.map(([card, p]) => `${cardLabel(card)} ${percent(p)}`).join(', ')}))));
}

// The colour by name and by pattern, for players who cannot tell red from green.
export function colorSwatch(color, {id, choosing = ''} = {}) {
  return el('span', {class: `swatch c-${color || 'none'}`, id, 'data-color': color || '', 'data-shown': color || choosing},
    el('span', {class: 'name'}, choosing && !color ? choosing : colorName(color)));
}

const chooserOf = view => {
  const seat = view.choosing_color;
  return seat === null || seat === undefined || !view.players ? '' : _('{name} is choosing', {name: view.players[seat]});
};

// --- the table's status, shared by the board and the seats ------------------------------------------------

const ARROWS = {'clockwise': '↻', 'counter-clockwise': '↺'};
const DIRECTIONS = {'clockwise': _('clockwise'), 'counter-clockwise': _('counter-clockwise')};

// A translated sentence with elements in place of its {names}: the word order is the language's.
export function sentenceOf(text, nodes) {
  return text.split(/(\{\w+\})/).filter(Boolean).map(part => {
    const key = part.slice(1, -1);
    return part.startsWith('{') && key in nodes ? nodes[key] : part;
  });
}

// Fills the #top-card, #active-color, #direction, #turn, #turn-line and #round elements of the page.
export function renderTable(view) {
  replaceIfChanged('top-card', 'card', view.top || '', () => cardElement(view.top, {id: 'top-card'}));
  // While a wild waits for its colour, say who is choosing rather than show an empty swatch.
  const choosing = view.color ? '' : chooserOf(view);
  replaceIfChanged('active-color', 'shown', view.color || choosing,
    () => colorSwatch(view.color, {id: 'active-color', choosing}));
  const direction = byId('direction');
  direction.dataset.direction = view.direction || '';
  direction.replaceChildren(el('span', {class: 'arrow', 'aria-hidden': 'true'}, ARROWS[view.direction] || ''),
    el('span', {}, DIRECTIONS[view.direction] || ''));
  const waiting = view.turn === null || view.turn === undefined;
  byId('turn-line').replaceChildren(...sentenceOf(_('{name} to play'),
    {name: el('span', {id: 'turn'}, waiting ? '' : view.players[view.turn])}));
  byId('turn-line').hidden = waiting || view.over;
  byId('round').textContent = roundLabel(view, waiting);
}

function roundLabel(view, waiting) {
  if (view.over) return _('Game over');
  if (!view.round) return _('Waiting for the deal');
  return waiting ? _('Round {n} · between rounds', {n: view.round}) : _('Round {n}', {n: view.round});
}

// The card and the swatch are rebuilt only when they change, so the page does not flicker on every update.
function replaceIfChanged(id, key, value, build) {
  const node = byId(id);
  if (node.dataset[key] !== value) node.replaceWith(build());
}

// One .player row per seat: name, UNO badge, hand size ("?" when unknown), cards owed, game total.
export function renderPlayers(list, view, me = null) {
  list.replaceChildren(...view.players.map((name, seat) => {
    const hand = view.hands[seat];
    const owed = view.owed ? view.owed[seat] : 0;
    const classes = ['player', seat === view.turn && !view.over && 'turn', view.uno.includes(seat) && 'uno',
      view.over && seat === view.winner && 'winner-seat', seat === me && 'me'];
    return el('li', {class: classes.filter(Boolean).join(' '), 'data-seat': seat},
      el('span', {class: 'name'}, el('span', {}, name), el('span', {class: 'badge'}, 'UNO')),
      el('span', {class: 'held'}, el('span', {class: 'hand'}, hand === null ? '?' : String(hand)), ' ',
        el('span', {class: 'unit'}, ngettext('card', 'cards', hand === null ? 2 : hand))),
      el('span', {class: 'extra'}, owed ? _('must draw {n}', {n: owed}) : ''),
      el('span', {class: 'score'}, el('span', {class: 'total'}, String(view.totals[seat])),
        el('span', {class: 'unit'}, ngettext('point', 'points', view.totals[seat]))));
  }));
}

// --- alerts: flash the screen and buzz on news, once per change ------------------------------------------

const SHOWN_FOR = 5000;

// Returns a function to call with every view: it flashes what is new, and returns how the view follows the one
// before (see stepBetween). The first view only sets the baseline, so a phone that opens the page or
// reconnects is not alerted again for news it has already had.
export function newsWatcher() {
  let last = null;
  return view => {
    const before = last;
    const step = stepBetween(before, view);
    if (step !== 'stale') last = view;
    const news = step === 'next' ? newsBetween(before, view) : [];
    if (news.length) flash(news);
    return step;
  };
}

// 'first'; 'stale' (the same view again, as after a reconnect); 'jump' (changes were missed: too late to
// alert); 'next' (the same game went on by one event) or 'restart' (a new game or an imported record replaced
// it, and its `alerts` hold every penalty of the new record, which is no news; or the server itself restarted,
// counting versions from 0 again). Every change adds one to `version`; every change but a new record adds one
// line to the record.
function stepBetween(before, view) {
  if (!before) return 'first';
  if (view.version === before.version) return 'stale';
  if (view.version < before.version) return 'restart';
  if (view.version > before.version + 1) return 'jump';
  const last = before.record.length - 1;
  const goesOn = before.game && view.game && view.record.length === last + 2 &&
    JSON.stringify(view.record[last]) === JSON.stringify(before.record[last]);
  return goesOn ? 'next' : 'restart';
}

// Penalties first, then the game's end, then the round's: the first item gives the overlay its heading.
function newsBetween(before, view) {
  const news = (view.alerts || []).map(alert => ({
    kind: 'penalty', heading: penaltyHeading(alert.reason), text: penaltyText(alert, view.players), sound: sound.patternFor(alert.reason),
  }));
  if (view.over && !before.over && view.winner !== null) {
    news.push({kind: 'over', heading: _('GAME OVER'), text: _('{name} wins the game!', {name: view.players[view.winner]}), sound: 'game-over'});
  }
  if (view.rounds.length > before.rounds.length) {
    const round = view.rounds[view.rounds.length - 1];
    news.push({kind: 'round', heading: _('ROUND {n} OVER', {n: round.round}),
      text: ngettext('{name} went out: {n} point', '{name} went out: {n} points', round.points, {name: round.name}), sound: 'round-over'});
  }
  return news;
}

let hideTimer = null;

// The full-screen overlay: the first item's heading (penalties come first), every item's text; tap to close.
export function flash(news) {
  const overlay = byId('alert');
  overlay.className = `alert ${news[0].kind}`;
  overlay.replaceChildren(el('div', {class: 'heading'}, news[0].heading),
    ...news.map(item => el('div', {class: 'text'}, item.text)),
    el('div', {class: 'hint'}, _('Tap to close')));
  overlay.hidden = false;
  overlay.onclick = hideAlert;
  sound.play(news[0].sound);
  clearTimeout(hideTimer);
  hideTimer = setTimeout(hideAlert, SHOWN_FOR);
}

function hideAlert() {
  clearTimeout(hideTimer);
  byId('alert').hidden = true;
}

// --- the sound toggle --------------------------------------------------------------------------------------

const SOUND_KEY = 'tabletop-sound';

// The choice is remembered; when it was "on", the first tap anywhere on the page turns the sound back on,
// as browsers allow audio only after a gesture.
export function soundToggle(button) {
  const show = () => {
    const on = sound.isOn();
    const state = on ? _('Sound is on') : _('Sound is off');
    button.textContent = '♪ ' + state;
    button.title = on ? _('Tap to turn the sound off') : _('Tap to turn the sound on');
    button.setAttribute('aria-pressed', String(on));
  };
  button.addEventListener('click', async () => {
    if (sound.isOn()) await sound.disable();
    else await sound.enable();
    localStorage.setItem(SOUND_KEY, sound.isOn() ? 'on' : 'off');
    show();
  });
  if (localStorage.getItem(SOUND_KEY) === 'on') {
    document.addEventListener('pointerdown', async event => {
      if (event.target === button || sound.isOn()) return;
      await sound.enable();
      show();
    }, {once: true});
  }
  show();
}

// --- the language ------------------------------------------------------------------------------------------

const LANGUAGE_COOKIE = 'tabletop-language';
const A_YEAR = 365 * 24 * 3600;

// A language picked on the page is this phone's from then on (a cookie, so that the pages come in it too).
function languagePicker() {
  const picker = byId('language');
  if (!picker) return;
  picker.value = language;
  picker.addEventListener('change', () => {
    document.cookie = `${LANGUAGE_COOKIE}=${picker.value}; path=/; max-age=${A_YEAR}; samesite=lax`;
    location.reload();
  });
}

languagePicker();
