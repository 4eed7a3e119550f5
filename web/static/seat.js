// A player's phone: claim the seat once, then call UNO, report draws and passes, challenge, catch, and name
// the colour for a wild.

import {api, byId, colorName, el, newsWatcher, noticeOf, renderPlayers, renderTable, sentenceOf, showMessage, soundToggle, watchView} from './common.js';
import {showEvening} from './evening.js';
import {_, ngettext} from './i18n.js';

const seat = Number(byId('seat-page').dataset.seat);
const tokenKey = `tabletop-seat-${seat}`;
const alertOnNews = newsWatcher();
const SHORT = 3000;

let view = null;
let messageTimer = null;

const token = () => localStorage.getItem(tokenKey);

// Said just under the buttons just pressed, in the page's flow, so that it never covers the players: under
// the claim button until the seat is this phone's, under the actions after.
function say(text, kind = 'error') {
  clearTimeout(messageTimer);
  const node = byId('play').hidden ? byId('claim-message') : byId('message');
  for (const other of [byId('claim-message'), byId('message')]) if (other !== node) showMessage(other, '');
  showMessage(node, text, kind);
  // Confirmations fade; refusals stay until the next action so they can be read.
  if (kind === 'ok') messageTimer = setTimeout(() => showMessage(node, ''), SHORT);
}

function render(next) {
  view = next;
  // A new game (or an imported one) makes every seat's token stale: ask for the seat again at once.
  if (alertOnNews(view) === 'restart') localStorage.removeItem(tokenKey);
  const hasSeat = view.game && seat < view.players.length;
  byId('no-game').hidden = view.game;
  byId('no-seat').hidden = !view.game || hasSeat;
  byId('claim-box').hidden = !hasSeat || Boolean(token());
  byId('play').hidden = !hasSeat || !token();
  if (hasSeat) renderSeat();
  showEvening(view);
}

function renderSeat() {
  byId('claim-name').textContent = view.players[seat];
  document.title = `tabletop · ${view.players[seat]}`;
  renderTable(view);
  renderPlayers(byId('players'), view, seat);
  renderHand();
  byId('your-turn').hidden = view.turn !== seat || view.over;
  byId('colors').hidden = view.choosing_color !== seat;
  byId('drew').textContent = owed() ? _('I drew {n}', {n: owed()}) : _('I drew');
  // A challenge only ever answers a wild draw four lying on top.
  byId('challenge').disabled = view.top !== 'wild-draw-four';
  if (!byId('catch-box').hidden) renderTargets();
}

const owed = () => (view.owed ? view.owed[seat] : 0);

function renderHand() {
  const hand = view.hands[seat];
  const held = hand === null ? _('You hold {n} cards') : ngettext('You hold {n} card', 'You hold {n} cards', hand);
  byId('my-hand').replaceChildren(...sentenceOf(held, {n: el('strong', {}, hand === null ? '?' : String(hand))}),
    owed() ? ' ' + _('(draw {n} more)', {n: owed()}) : '');
}

// --- claiming the seat --------------------------------------------------------------------------------------

// The seat's QR code carries its join code after '#', which the browser never sends to the server (nor keeps
// in its logs); it is spent by the claim, so the address is tidied once the seat is this phone's.
const joinCode = () => new URLSearchParams(location.hash.slice(1)).get('join') || '';

async function claim() {
  if (!joinCode()) return say(_('Scan this seat’s code on the table’s join screen, or ask the host for one.'));
  const result = await api(`/api/seats/${seat}/claim`, {method: 'POST', body: {code: joinCode()}});
  if (!result.ok) return say(result.error);
  localStorage.setItem(tokenKey, result.data.token);
  history.replaceState(null, '', location.pathname);
  render(view);
  say(_("This phone is now {name}'s.", {name: result.data.name}), 'ok');
}

// A 401 or 403 means this phone no longer holds the seat: another phone took it, or a new game began.
function lostSeat(error) {
  localStorage.removeItem(tokenKey);
  render(view);
  say(error + ' ' + _('Scan the seat’s code again to claim it.'));
}

// --- acting ------------------------------------------------------------------------------------------------

async function send(event, done) {
  const result = await api('/api/events', {method: 'POST', body: {...event, seat}, headers: {'X-Seat-Token': token() || ''}});
  if (result.status === 401 || result.status === 403) return lostSeat(result.error);
  if (!result.ok) return say(result.error);
  const notice = noticeOf(result);
  if (notice) say(_('Noted, but the referee could not use it: {why}.', {why: notice}));
  else say(done, 'ok');
}

function openCatch(open) {
  byId('catch-box').hidden = !open;
  byId('catch').setAttribute('aria-expanded', String(open));
  if (open) renderTargets();
}

// Everyone but this seat; those holding one card are marked, as they are the ones worth catching.
function renderTargets() {
  byId('targets').replaceChildren(...view.players.map((name, target) => {
    if (target === seat) return null;
    const onUno = view.uno.includes(target);
    return el('button', {type: 'button', class: onUno ? 'uno' : null, 'data-target': target, onclick: () => catchPlayer(target, name)},
      el('span', {}, name), onUno ? el('span', {class: 'badge'}, _('UNO')) : null);
  }).filter(Boolean));
}

async function catchPlayer(target, name) {
  openCatch(false);
  await send({type: 'catch', target}, _('You called out {name}.', {name}));
}

function wire() {
  for (const node of [byId('message'), byId('claim-message')]) node.addEventListener('click', () => showMessage(node, ''));
  byId('claim').addEventListener('click', claim);
  byId('uno').addEventListener('click', () => send({type: 'uno'}, _('UNO called!')));
  byId('drew').addEventListener('click', () => send({type: 'draw', count: owed() || 1}, _('Draw noted.')));
  byId('pass').addEventListener('click', () => send({type: 'pass'}, _('Pass noted.')));
  byId('challenge').addEventListener('click', () => send({type: 'challenge'}, _('Challenge made.')));
  byId('catch').addEventListener('click', () => openCatch(byId('catch-box').hidden));
  byId('catch-cancel').addEventListener('click', () => openCatch(false));
  for (const button of byId('colors').querySelectorAll('button[data-color]')) {
    const color = button.dataset.color;
    button.addEventListener('click', () => send({type: 'color', color}, _('Colour named: {color}.', {color: colorName(color)})));
  }
}

wire();
soundToggle(byId('sound'));
watchView(render);
