// The host's page: behind the PIN, the game at a glance, start a game, run the rounds, confirm unsure
// readings, undo, edit and fill in the record, export and import it, show the join codes and place the
// camera's zones.

import {api, byId, cardElement, cardLabel, colorName, el, evidenceBox, noticeOf, parseCard, showMessage, syncList, watchView} from './common.js';
import {showEvening} from './evening.js';
import {_, ngettext} from './i18n.js';
import {showRounds} from './race.js';
import {describe, presetName} from './words.js';

const PASS_KEY = 'tabletop-host-pass';
const MIN_PLAYERS = 2;
const MAX_PLAYERS = 10;

let view = null;
let cards = [];
let rules = {presets: {official: {}}, options: []};
let shownPlayers = null;
let opened = false;

const hostPass = () => sessionStorage.getItem(PASS_KEY) || '';

// This browser's own name for its count of wrong PINs, made once and kept (it is no secret): a guest guessing
// from the same address, as on a Wi-Fi behind one router, spends only its own tries and never makes the host
// wait.
const DEVICE_KEY = 'tabletop-host-device';
function hostDevice() {
  let device = localStorage.getItem(DEVICE_KEY);
  if (!device) {
    device = Array.from(crypto.getRandomValues(new Uint8Array(16)), b => b.toString(16).padStart(2, '0')).join('');
    localStorage.setItem(DEVICE_KEY, device);
  }
  return device;
}
const players = () => view.players || [];

// --- the PIN -----------------------------------------------------------------------------------------------

// The PIN is sent once and traded for a host pass, which this page keeps (never the PIN) and shows from then
// on: wrong PINs tried from the same address cannot shut out a host who is in.
async function unlock(headers) {
  const result = await api('/api/host/check', {method: 'POST', headers});
  if (!result.ok) return lock(result.error);
  sessionStorage.setItem(PASS_KEY, result.data.host_pass);
  await openHostPage();
}

function lock(why = '') {
  sessionStorage.removeItem(PASS_KEY);
  stopCamera();
  byId('host').hidden = true;
  byId('lock').hidden = true;
  byId('pin-box').hidden = false;
  byId('pin').value = '';
  showMessage(byId('pin-message'), why);
}

async function openHostPage() {
  byId('pin-box').hidden = true;
  byId('host').hidden = false;
  byId('lock').hidden = false;
  showMessage(byId('pin-message'), '');
  if (opened) return;
  opened = true;
  const [rulesResult, cardsResult] = await Promise.all([api('/api/rules'), api('/api/cards')]);
  if (rulesResult.ok) rules = rulesResult.data;
  else showMessage(byId('new-game-message'), rulesResult.error);
  cards = cardsResult.ok ? cardsResult.data : [];
  buildRulesForm();
  byId('flip-picker').replaceChildren(cardPicker());
  watchView(render);
}

// --- talking to the server as the host ---------------------------------------------------------------------

// Shows the outcome in `node`; a 401 or 403 means the pass is no longer valid, so the PIN prompt comes back.
async function asHost(path, options, node, done) {
  const result = await api(path, {...options, headers: {'X-Host-Pass': hostPass()}});
  if (result.status === 401 || result.status === 403) {
    lock(result.error);
    return null;
  }
  if (!result.ok) {
    showMessage(node, result.error);
    return null;
  }
  showMessage(node, done, 'ok');
  return result;
}

// An accepted event may still be one the referee could not use: its notice is shown instead of "done".
async function postEvent(event, node, done) {
  const result = await asHost('/api/events', {method: 'POST', body: event}, node, done);
  const notice = result && noticeOf(result);
  if (notice) showMessage(node, _('Recorded, but the referee could not use it: {why}.', {why: notice}));
  return result;
}

// --- rendering the live view -------------------------------------------------------------------------------

function render(next) {
  const first = view === null;
  view = next;
  if (first) {
    seedNames(players());
    byId('new-game').open = !view.game;
  }
  if (JSON.stringify(players()) !== shownPlayers) {
    shownPlayers = JSON.stringify(players());
    renderSeatControls();
    renderJoin();
  }
  byId('round-note').hidden = view.game;
  byId('round-controls').hidden = !view.game;
  renderSummary();
  renderUnsure();
  renderRecord();
  renderRace();
  byId('camera').hidden = !view.camera;
  showEvening(view);
}

function renderRace() {
  showRounds({chart: byId('race'), table: byId('rounds'), none: byId('no-rounds')}, players(),
    view.game ? view.rounds : [], view.target);
}

// --- the game at a glance ----------------------------------------------------------------------------------

const nameOf = seat => (seat === null || seat === undefined ? _('The player to play') : players()[seat]);

function gameLine() {
  if (!view.game) return _('No game yet: start one below.');
  if (view.over) return _('Game over: {name} wins.', {name: players()[view.winner]});
  if (!view.round) return _('No round dealt yet.');
  if (view.turn === null || view.turn === undefined) return _('Round {n}: over, or not begun.', {n: view.round});
  const top = view.top ? cardLabel(view.top) : '—';
  const card = view.color && view.top && view.top.startsWith('wild') ? `${top} (${colorName(view.color)})` : top;
  return _('Round {n}: {name} to play, {card} on top.', {n: view.round, name: players()[view.turn], card});
}

function handsLine() {
  if (!view.game) return '';
  const hands = players().map((name, seat) => {
    const size = view.hands[seat];
    return `${name} ${size === null ? '?' : size}${size === 1 ? ' (UNO)' : ''}`;
  });
  const scores = players().map((name, seat) => `${name} ${view.totals[seat]}`);
  const cards = _('Cards: {hands}.', {hands: hands.join(' · ')});
  const totals = _('Scores: {scores}.', {scores: scores.join(' · ')});
  return [cards, totals, ngettext('{n} penalty so far.', '{n} penalties so far.', view.penalties.length)].join(' ');
}

// What needs the host: readings to confirm, and draws the camera missed (each put right in one tap).
function renderSummary() {
  byId('summary-line').textContent = gameLine();
  byId('summary-hands').textContent = handsLine();
  const unsure = (view.unsure || []).map(item => ({key: `unsure-${item.ref}`, item, build: unsureNeed}));
  const unseen = (view.unseen_draws || []).map(item => ({key: `draw-${item.ref}-${item.seat}`, item, build: unseenDrawNeed}));
  syncList(byId('needs'), [...unsure, ...unseen], need => need.key, need => need.build(need.item));
}

function unsureNeed(item) {
  return el('li', {class: 'need', 'data-ref': item.ref},
    el('span', {}, '#' + item.ref + ': ' + _('a card from {name} to confirm.', {name: nameOf(item.seat)}) + ' '),
    el('a', {href: '#unsure-box'}, _('Confirm it')));
}

function unseenDrawNeed(item) {
  const name = players()[item.seat];
  return el('li', {class: 'need unseen-draw', 'data-ref': item.ref, 'data-seat': item.seat},
    el('span', {}, '#' + item.ref + ': ' + _("{name}'s turn ended with no draw seen, so {name}'s hand is unknown.", {name}) + ' '),
    el('button', {type: 'button', class: 'small put-draw',
      onclick: () => postEvent({type: 'insert', ref: item.ref, event: {type: 'draw', seat: item.seat}},
        byId('summary-message'), _("{name}'s draw was put in before #{ref}.", {name, ref: item.ref}))}, _("Put in {name}'s draw", {name})));
}

// --- new game: players and rules ---------------------------------------------------------------------------

function seedNames(names) {
  const seeded = names.length ? names : Array(MIN_PLAYERS).fill('');
  byId('names').replaceChildren(...seeded.map(nameRow));
  renumber();
}

function nameRow(name = '') {
  const row = el('li', {},
    el('span', {class: 'seat-no'}),
    el('input', {type: 'text', value: name, 'aria-label': _('player name'), placeholder: _('Name'), maxlength: 40, autocomplete: 'off'}),
    el('button', {type: 'button', class: 'up', 'aria-label': _('move up'), onclick: () => moveRow(row, -1)}, '↑'),
    el('button', {type: 'button', class: 'down', 'aria-label': _('move down'), onclick: () => moveRow(row, 1)}, '↓'),
    el('button', {type: 'button', class: 'remove danger', 'aria-label': _('remove player'), onclick: () => removeRow(row)}, '✕'));
  return row;
}

function moveRow(row, step) {
  if (step < 0 && row.previousElementSibling) row.previousElementSibling.before(row);
  if (step > 0 && row.nextElementSibling) row.nextElementSibling.after(row);
  renumber();
}

function removeRow(row) {
  row.remove();
  renumber();
}

function addRow() {
  const row = nameRow();
  byId('names').append(row);
  renumber();
  row.querySelector('input').focus();
}

function renumber() {
  const rows = [...byId('names').children];
  rows.forEach((row, index) => {
    row.querySelector('.seat-no').textContent = `${index + 1}.`;
    row.querySelector('.up').disabled = index === 0;
    row.querySelector('.down').disabled = index === rows.length - 1;
    row.querySelector('.remove').disabled = rows.length <= MIN_PLAYERS;
  });
  byId('add-player').disabled = rows.length >= MAX_PLAYERS;
}

const OPTIONS = {
  hand_size: _('cards dealt'), draw: _('drawing'), wild_draw_four: _('Wild Draw Four allowed'),
  challenge: _('challenges'), challenge_penalty: _('extra cards for a lost challenge'),
  uno_penalty: _('cards for a missed UNO'), auto_catch: _('missed UNO caught by the referee'),
  false_uno_penalty: _('cards for a false UNO'), misplay_penalty: _('cards for a wrong card'),
  stacking: _('stacking draw cards'), jump_in: _('jump-in'), seven_zero: _('seven-zero'),
  two_player_reverse: _('reverse with two players'), skip: _('skip'), scoring: _('scoring'),
  target: _('points to win'), wild_customizable: _('the blank Wild Customizable card'),
  special_wild_points: _('points for each special wild'),
};
const CHOICES = {
  'one': _('draw one'), 'until-playable': _('draw until playable'),
  'no-active-color': _('without the active colour'), 'no-match': _('without a matching card'),
  'anytime': _('any time'), 'off': _('off'), 'pass-on': _('pass it on'),
  'draw-two': _('draw two on draw two'), 'draw-two-and-four': _('draw two and four'),
  'skip': _('skips the other'), 'reverse': _('reverses'), 'next-player': _('skips the next player'),
  'play-again': _('plays again'), 'winner-collects': _('the winner collects'),
  'own-points': _('each keeps their own points'), 'wild': _('a plain wild'),
  'wild-draw-two': _('a wild draw two'), 'everyone-draws-one': _('everyone else draws one'),
  'swap-hands': _('swap hands'),
};
const wordsFor = (table, code) => (table[code] || code);
const optionLabel = name => wordsFor(OPTIONS, name);
const optionInputOf = option => byId(`option-${option.name}`);

function buildRulesForm() {
  byId('preset').replaceChildren(...Object.keys(rules.presets).map(name => el('option', {value: name}, presetName(name))));
  if ('official' in rules.presets) byId('preset').value = 'official';
  byId('options').replaceChildren(...rules.options.map(option =>
    el('label', {for: `option-${option.name}`}, el('span', {}, optionLabel(option.name)), optionInput(option))));
  applyPreset();
}

function optionInput(option) {
  const props = {id: `option-${option.name}`, 'data-option': option.name};
  if (option.kind === 'bool') return el('input', {...props, type: 'checkbox'});
  if (option.kind === 'choice') return el('select', props, ...option.choices.map(choice => el('option', {value: choice}, wordsFor(CHOICES, choice))));
  return el('input', {...props, type: 'number', min: option.min, max: option.max, step: 1, inputmode: 'numeric', required: true});
}

function presetValue(option) {
  const preset = rules.presets[byId('preset').value] || {};
  return option.name in preset ? preset[option.name] : option.default;
}

function applyPreset() {
  for (const option of rules.options) {
    const input = optionInputOf(option);
    if (option.kind === 'bool') input.checked = presetValue(option);
    else input.value = String(presetValue(option));
  }
}

function readOption(option) {
  const input = optionInputOf(option);
  if (option.kind === 'bool') return input.checked;
  return option.kind === 'int' ? Number(input.value) : input.value;
}

// The preset, and only the options set differently from it, so the record says what the table changed.
function chosenRules() {
  const chosen = {preset: byId('preset').value};
  for (const option of rules.options) {
    const value = readOption(option);
    if (value !== presetValue(option)) chosen[option.name] = value;
  }
  return chosen;
}

async function startGame() {
  const node = byId('new-game-message');
  const names = [...byId('names').querySelectorAll('input')].map(input => input.value.trim());
  if (names.some(name => !name)) return showMessage(node, _('Every player needs a name.'));
  const invalid = [...byId('options').querySelectorAll('input[type=number]')].find(input => !input.checkValidity());
  if (invalid) return showMessage(node, `${optionLabel(invalid.dataset.option)}: ${invalid.validationMessage}`);
  const result = await asHost('/api/game', {method: 'POST', body: {players: names, rules: chosenRules()}}, node,
    _('New game started: {players}.', {players: names.join(', ')}));
  if (result) render(result.data);
}

// --- the round: deal, flip, end, points --------------------------------------------------------------------

const seatOptions = () => players().map((name, seat) => el('option', {value: seat}, name));

function renderSeatControls() {
  byId('dealer').replaceChildren(...seatOptions());
  byId('dealer').value = String(nextDealer());
  byId('end-seat').replaceChildren(...seatOptions());
  showEndLabel();
  byId('points-rows').replaceChildren(...players().map(pointsRow));
}

// The seat after the last dealer: dealing passes round the table.
function nextDealer() {
  return view.next_dealer || 0;
}

function showEndLabel() {
  const seat = byId('end-seat').value;
  byId('end').textContent = seat === '' ? _('End round') : _('End round: {name} went out', {name: players()[Number(seat)]});
}

function pointsRow(name, seat) {
  const input = el('input', {type: 'number', min: 0, step: 1, inputmode: 'numeric', 'aria-label': _("points in {name}'s hand", {name})});
  return el('div', {class: 'row', 'data-seat': seat},
    el('span', {class: 'who'}, name), input,
    el('button', {type: 'button', onclick: () => enterPoints(seat, name, input)}, _('Enter')));
}

async function enterPoints(seat, name, input) {
  const node = byId('round-message');
  if (input.value === '' || !input.checkValidity()) return showMessage(node, _("Enter {name}'s points as a whole number.", {name}));
  const points = Number(input.value);
  const result = await postEvent({type: 'points', seat, points}, node, ngettext('{name}: {n} point.', '{name}: {n} points.', points, {name}));
  if (result) input.value = '';
}

async function deal() {
  const dealer = Number(byId('dealer').value);
  const result = await postEvent({type: 'deal', dealer}, byId('round-message'), _('{name} deals.', {name: players()[dealer]}));
  if (result) byId('dealer').value = String((dealer + 1) % players().length);
}

async function flip() {
  const card = byId('flip-picker').querySelector('select').value;
  if (!card) return showMessage(byId('round-message'), _('Choose the card that was turned over first.'));
  await postEvent({type: 'flip', card}, byId('round-message'), _('Flipped: {card}.', {card: cardLabel(card)}));
}

async function endRound() {
  const seat = Number(byId('end-seat').value);
  await postEvent({type: 'end', seat}, byId('round-message'), _('{name} went out.', {name: players()[seat]}));
}

// --- cards -------------------------------------------------------------------------------------------------

function cardGroups() {
  const groups = new Map();
  for (const name of cards) {
    const {color} = parseCard(name);
    const label = color ? colorName(color) : _('Wild cards');
    groups.set(label, [...(groups.get(label) || []), name]);
  }
  return [...groups];
}

// A select of all 57 cards (the special wilds of the 112-card deck with the wilds), grouped by colour, with the
// chosen card drawn beside it.
function cardPicker(selected = '') {
  const select = el('select', {'aria-label': _('which card')}, el('option', {value: ''}, _('Choose a card…')),
    ...cardGroups().map(([label, names]) =>
      el('optgroup', {label}, ...names.map(name => el('option', {value: name}, cardLabel(name))))));
  select.value = selected;
  const preview = el('span', {class: 'preview'});
  const show = () => preview.replaceChildren(...(select.value ? [cardElement(select.value, {size: 'tiny'})] : []));
  select.addEventListener('change', show);
  show();
  return el('span', {class: 'picker'}, select, preview);
}

// --- unsure readings ---------------------------------------------------------------------------------------

function renderUnsure() {
  const items = view.unsure || [];
  syncList(byId('unsure'), items, item => item.ref, unsureRow);
  byId('no-unsure').hidden = items.length > 0;
  byId('unsure-count').textContent = items.length ? `(${items.length})` : '';
}

function unsureRow(item) {
  const who = nameOf(item.seat);
  const picker = cardPicker();
  const chosen = () => picker.querySelector('select').value;
  return el('li', {'data-ref': item.ref},
    el('p', {}, _('{name} laid a card the camera could not read surely. Which was it?', {name: who})),
    item.seen ? el('img', {class: 'seen', src: `/api/pictures/${item.ref}`, alt: _('the card the camera saw'), width: 96, height: 144}) : null,
    el('div', {class: 'guesses'}, ...item.guesses.map(([card, confidence]) =>
      el('button', {type: 'button', class: 'guess', 'data-card': card, onclick: () => confirmReading(item, card)},
        cardElement(card, {size: 'tiny'}), el('span', {}, cardLabel(card)),
        el('span', {class: 'confidence'}, `${Math.round(confidence * 100)}%`)))),
    el('div', {class: 'row'}, picker,
      el('button', {type: 'button', class: 'confirm', onclick: () => confirmPicked(item, chosen())}, _('Confirm')),
      el('button', {type: 'button', class: 'retract', onclick: () => retract(item.ref, byId('unsure-message'))}, _('Not a card'))));
}

function confirmPicked(item, card) {
  if (!card) return showMessage(byId('unsure-message'), _('Choose the card first.'));
  return confirmReading(item, card);
}

function confirmReading(item, card) {
  // The first card of a round opens it: it is the round's flip, laid by nobody.
  const event = {type: item.flip ? 'flip' : 'play', card};
  if (!item.flip && item.seat !== null && item.seat !== undefined) event.seat = item.seat;
  return postEvent({type: 'amend', ref: item.ref, event}, byId('unsure-message'), _('Confirmed: {card}.', {card: cardLabel(card)}));
}

// --- the record --------------------------------------------------------------------------------------------

const CORRECTIONS = ['retract', 'amend', 'insert'];
const isCorrection = event => CORRECTIONS.includes(event.type);
const PAGE = 12;

// What later corrections did to each line, so an undone or edited event reads as such.
function fates(record) {
  const byRef = new Map();
  for (const {event} of record) {
    if (event.type === 'retract' || event.type === 'amend') byRef.set(event.ref, event.type === 'retract' ? 'undone' : 'edited');
  }
  return byRef;
}

// The newest lines only, a page at a time: "Show older lines" shows more, and once more are asked for than
// the view carries, fetches every line after each change.
let shown = PAGE;
let wholeRecord = null;

async function renderRecord() {
  if (wholeRecord !== null) {
    const result = await api('/api/lines');
    if (result.ok) wholeRecord = result.data;
  }
  const record = wholeRecord || view.record || [];
  const total = view.lines || record.length;
  const older = byId('record-older');
  older.hidden = shown >= total;
  older.textContent = _('Show older lines ({shown} of {total} shown)', {shown: Math.min(shown, total), total});
  const fateOf = fates(record);
  const items = [...record].reverse().slice(0, shown).map(entry => ({...entry, fate: fateOf.get(entry.ref) || null}));
  syncList(byId('record'), items, item => item.ref, recordRow);
}

function showOlder() {
  shown += 2 * PAGE;
  if (shown > (view.record || []).length && wholeRecord === null) wholeRecord = [];
  renderRecord();
}

// A correction itself can be neither undone nor edited (docs/record.md), so its row has no buttons; nothing goes
// before the first line.
function recordRow(item) {
  const row = el('li', {'data-ref': item.ref, 'data-type': item.event.type, class: item.fate},
    el('div', {}, el('span', {class: 'ref'}, `#${item.ref}`), el('span', {class: 'text'}, describe(item.event, players())),
      item.fate ? el('span', {class: 'fate muted'}, ' (' + (item.fate === 'undone' ? _('undone') : _('edited')) + ')') : null));
  if (!isCorrection(item.event)) {
    row.append(el('div', {class: 'tools'},
      el('button', {type: 'button', class: 'retract small', onclick: () => retract(item.ref, byId('record-message'))}, _('Undo')),
      el('button', {type: 'button', class: 'amend small', onclick: () => toggleEditor(row, item)}, _('Edit')),
      item.ref > 0 ? el('button', {type: 'button', class: 'missed small', onclick: () => toggleMissed(row, item)}, _('Missed…')) : null,
      item.seen ? el('button', {type: 'button', class: 'picture small', onclick: () => togglePicture(row, item)}, _('Picture')) : null));
  }
  return row;
}

// The card as the camera saw it; for a card it read, the other guesses put a misread right in one more tap.
function togglePicture(row, item) {
  const open = row.querySelector('.evidence');
  if (open) return open.remove();
  const {type, card, seat} = item.event;
  const read = type === 'play' || type === 'flip' ? card : null;
  const choose = read && (chosen => postEvent({type: 'amend', ref: item.ref, event: type === 'flip' ? {type, card: chosen} : {type, card: chosen, seat}},
    byId('record-message'), _('#{ref} was really {card}.', {ref: item.ref, card: cardLabel(chosen)})));
  row.append(evidenceBox({ref: item.ref, card: read, seen: item.seen}, choose || null));
}

function toggleMissed(row, item) {
  const open = row.querySelector('.missed-form');
  if (open) open.remove();
  else row.append(missedForm(item));
}

// Something the table did not see just before this line: a draw, an UNO call or a pass, by any seat.
function missedForm(item) {
  const who = el('select', {'aria-label': _('who'), 'data-field': 'who'}, ...seatOptions());
  const what = el('select', {'aria-label': _('what happened'), 'data-field': 'what'},
    el('option', {value: 'draw'}, _('drew')), el('option', {value: 'uno'}, _('called UNO')), el('option', {value: 'pass'}, _('passed')));
  const count = el('input', {type: 'number', min: 1, max: 99, step: 1, value: 1, inputmode: 'numeric', 'aria-label': _('cards drawn'), 'data-field': 'count'});
  const message = el('p', {class: 'message', role: 'status'});
  what.addEventListener('change', () => { count.hidden = what.value !== 'draw'; });
  const box = el('div', {class: 'missed-form'},
    el('p', {class: 'muted'}, _('Just before #{ref}, the table missed:', {ref: item.ref})),
    el('div', {class: 'row'}, who, what, count),
    message,
    el('div', {class: 'row'},
      el('button', {type: 'button', class: 'primary save', onclick: () => saveMissed(item.ref, who, what, count, message)}, _('Put it in')),
      el('button', {type: 'button', onclick: () => box.remove()}, _('Cancel'))));
  return box;
}

async function saveMissed(ref, who, what, count, message) {
  const seat = Number(who.value);
  const event = {type: what.value, seat};
  if (what.value === 'draw') {
    if (!count.checkValidity()) return showMessage(message, _('cards drawn') + ': ' + count.validationMessage);
    event.count = Number(count.value);
  }
  const result = await postEvent({type: 'insert', ref, event}, message, _('Put in.'));
  if (result) showMessage(byId('record-message'), _('Put in before #{ref}: {event}.', {ref, event: describe(event, players())}), 'ok');
}

function retract(ref, node) {
  return postEvent({type: 'retract', ref}, node, _('#{ref} undone.', {ref}));
}

function toggleEditor(row, item) {
  const open = row.querySelector('.editor');
  if (open) open.remove();
  else row.append(editor(item));
}

// The event as JSON to edit; for a play or a flip, a card picker writes the card into it as well.
function editor(item) {
  const text = el('textarea', {'aria-label': _('the event as JSON'), spellcheck: 'false'});
  text.value = JSON.stringify(item.event, null, 1);
  const message = el('p', {class: 'message', role: 'status'});
  const hasCard = item.event.type === 'play' || item.event.type === 'flip';
  const picker = hasCard ? cardPicker(item.event.card) : null;
  if (picker) picker.querySelector('select').addEventListener('change', change => setCard(text, change.target.value, message));
  const box = el('div', {class: 'editor'}, picker, text, message,
    el('div', {class: 'row'},
      el('button', {type: 'button', class: 'primary save', onclick: () => saveAmend(item.ref, text, message)}, _('Save')),
      el('button', {type: 'button', onclick: () => box.remove()}, _('Cancel'))));
  return box;
}

function setCard(textarea, card, message) {
  try {
    textarea.value = JSON.stringify({...JSON.parse(textarea.value), card}, null, 1);
  } catch (error) {
    showMessage(message, _('The JSON is not valid ({why}); fix it before choosing a card.', {why: error.message}));
  }
}

async function saveAmend(ref, textarea, message) {
  let event;
  try {
    event = JSON.parse(textarea.value);
  } catch (error) {
    return showMessage(message, _('That is not valid JSON: {why}', {why: error.message}));
  }
  const result = await postEvent({type: 'amend', ref, event}, message, _('Saved.'));
  if (result) showMessage(byId('record-message'), _('#{ref} edited.', {ref}), 'ok');
}

// --- export, import, join ----------------------------------------------------------------------------------

async function importRecord(change) {
  const input = change.target;
  const file = input.files[0];
  if (!file) return;
  const text = await file.text();
  const result = await asHost('/api/record', {method: 'POST', body: text, type: 'application/x-ndjson'},
    byId('import-message'), _('Imported {file}.', {file: file.name}));
  input.value = '';
  if (result) render(result.data);
}

// A code from the host moves a seat to whichever phone scans it, taken or not: shown only when asked for.
function renderJoin() {
  byId('join-codes').replaceChildren(...players().map((name, seat) =>
    el('figure', {'data-seat': seat},
      el('button', {type: 'button', class: 'small', onclick: () => showInvite(seat, name)}, _('New code for {name}', {name})))));
}

async function showInvite(seat, name) {
  const result = await asHost(`/api/seats/${seat}/invite`, {method: 'POST'}, byId('join-message'), '');
  if (!result) return;
  const {url, svg} = result.data;
  byId('join-codes').querySelector(`figure[data-seat='${seat}']`).replaceChildren(
    el('img', {src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, alt: _("QR code for {name}'s seat", {name}), width: 160, height: 160}),
    el('figcaption', {}, name, el('a', {href: url}, `/seat/${seat}`)));
}

// --- the camera and its zones ------------------------------------------------------------------------------

// The layout in frame pixels (as the server keeps it) and the frame's size; zones are drawn scaled to the
// preview's displayed size and dragged in frame pixels.
const camera = {frame: null, layout: null};
const MIN_SIZE = 8;
const SEAT_RING = 0.4;  // seat marks sit on a ring this fraction of the frame's smaller side from the centre

function setCardHeight(change) {
  if (camera.layout) camera.layout.card_height = Number(change.target.value);
}

// An <img> cannot send the pass, so the preview's address carries a single-use ticket instead.
async function startCamera() {
  const ticket = await asHost('/api/camera/ticket', {method: 'POST'}, byId('camera-message'), '');
  if (ticket && byId('camera').open) byId('camera-img').src = ticket.data.url;
  if (!camera.layout) await loadLayout('');
}

// The preview is a never-ending stream: stop it while the section is closed, to spare the Pi.
function stopCamera() {
  byId('camera-img').removeAttribute('src');
}

async function loadLayout(done) {
  const result = await asHost('/api/layout', {}, byId('camera-message'), done);
  if (result) useLayout(result.data);
}

async function saveLayout() {
  const tidy = (key, value) => (typeof value === 'number' ? Math.round(value * 10) / 10 : value);
  const result = await asHost('/api/layout', {method: 'PUT', body: JSON.stringify(camera.layout, tidy)},
    byId('camera-message'), _('Zones saved.'));
  if (result) useLayout(result.data);
}

function useLayout(data) {
  camera.frame = {width: data.width, height: data.height};
  camera.layout = structuredClone(data.layout);
  byId('camera-view').style.aspectRatio = `${data.width} / ${data.height}`;
  byId('card-height').value = data.layout.card_height;
  buildZones();
}

const scale = () => byId('camera-view').clientWidth / camera.frame.width;
const clamp = (value, low, high) => Math.min(high, Math.max(low, value));
const zoneNode = name => byId('camera-view').querySelector(`[data-zone="${name}"]`);

function buildZones() {
  const preview = byId('camera-view');
  preview.querySelectorAll('.zone').forEach(node => node.remove());
  preview.append(circleZone('discard'), circleZone('draw'), revealZone(), centreMark(),
    ...camera.layout.seats.map((_, seat) => seatMark(seat)));
  placeZones();
}

const ZONES = {discard: _('discard'), draw: _('draw'), reveal: _('reveal'), centre: _('centre')};

function zone(name, classes, label, onDrag, onResize) {
  const node = el('div', {class: `zone ${classes}`, 'data-zone': name}, el('span', {class: 'label'}, label));
  draggable(node, onDrag);
  if (onResize) {
    const handle = el('span', {class: 'handle', 'aria-label': _('resize {zone}', {zone: label})});
    draggable(handle, onResize);
    node.append(handle);
  }
  return node;
}

function circleZone(name) {
  const circle = () => camera.layout[name];
  return zone(name, 'circle', ZONES[name],
    ({dx, dy}) => {
      const [x, y] = circle().centre;
      circle().centre = [clamp(x + dx, 0, camera.frame.width), clamp(y + dy, 0, camera.frame.height)];
    },
    ({point}) => {
      circle().radius = Math.max(MIN_SIZE, Math.hypot(point[0] - circle().centre[0], point[1] - circle().centre[1]));
    });
}

function revealZone() {
  const rect = () => camera.layout.reveal;
  return zone('reveal', 'rect', ZONES.reveal,
    ({dx, dy}) => Object.assign(rect(), {left: rect().left + dx, right: rect().right + dx, top: rect().top + dy, bottom: rect().bottom + dy}),
    ({point}) => Object.assign(rect(), {right: Math.max(rect().left + MIN_SIZE, point[0]), bottom: Math.max(rect().top + MIN_SIZE, point[1])}));
}

function centreMark() {
  return zone('centre', 'point', ZONES.centre, ({point}) => {
    camera.layout.centre = [clamp(point[0], 0, camera.frame.width), clamp(point[1], 0, camera.frame.height)];
  });
}

// Seats are angles round the centre, clockwise from the picture's right-hand edge (image y grows down).
function seatMark(seat) {
  return zone(`seat-${seat}`, 'point seat-mark', players()[seat] || _('seat {n}', {n: seat}), ({point}) => {
    const [cx, cy] = camera.layout.centre;
    const degrees = Math.atan2(point[1] - cy, point[0] - cx) * 180 / Math.PI;
    camera.layout.seats[seat] = (degrees + 360) % 360;
  });
}

// One seat mark per player, evenly round the table, the first at the bottom edge (as calibration places them).
function spreadSeats() {
  if (!camera.layout) return;
  const count = players().length || camera.layout.seats.length;
  camera.layout.seats = Array.from({length: count}, (_, seat) => (90 + seat * 360 / count) % 360);
  buildZones();
}

function seatPoint(angle) {
  const [cx, cy] = camera.layout.centre;
  const ring = SEAT_RING * Math.min(camera.frame.width, camera.frame.height);
  const radians = angle * Math.PI / 180;
  return [cx + ring * Math.cos(radians), cy + ring * Math.sin(radians)];
}

function placeZones() {
  if (!camera.layout) return;
  const s = scale();
  const {layout} = camera;
  for (const name of ['discard', 'draw']) {
    const {centre: [x, y], radius} = layout[name];
    place(zoneNode(name), (x - radius) * s, (y - radius) * s, 2 * radius * s, 2 * radius * s);
  }
  const {left, top, right, bottom} = layout.reveal;
  place(zoneNode('reveal'), left * s, top * s, (right - left) * s, (bottom - top) * s);
  place(zoneNode('centre'), layout.centre[0] * s, layout.centre[1] * s);
  layout.seats.forEach((angle, seat) => {
    const [x, y] = seatPoint(angle);
    place(zoneNode(`seat-${seat}`), x * s, y * s);
  });
}

function place(node, left, top, width, height) {
  node.style.left = `${left}px`;
  node.style.top = `${top}px`;
  if (width !== undefined) {
    node.style.width = `${width}px`;
    node.style.height = `${height}px`;
  }
}

// Pointer events cover mouse, touch and pen alike; onDrag gets the move in frame pixels and where the
// pointer is in the frame.
function draggable(node, onDrag) {
  node.addEventListener('pointerdown', down => {
    down.preventDefault();
    down.stopPropagation();
    node.setPointerCapture(down.pointerId);
    let last = [down.clientX, down.clientY];
    const move = event => {
      const s = scale();
      const box = byId('camera-view').getBoundingClientRect();
      onDrag({dx: (event.clientX - last[0]) / s, dy: (event.clientY - last[1]) / s,
        point: [(event.clientX - box.left) / s, (event.clientY - box.top) / s]});
      last = [event.clientX, event.clientY];
      placeZones();
    };
    const up = () => {
      node.removeEventListener('pointermove', move);
      node.removeEventListener('pointerup', up);
      node.removeEventListener('pointercancel', up);
    };
    node.addEventListener('pointermove', move);
    node.addEventListener('pointerup', up);
    node.addEventListener('pointercancel', up);
  });
}

// --- wiring ------------------------------------------------------------------------------------------------

function wire() {
  byId('pin-form').addEventListener('submit', submit => {
    submit.preventDefault();
    unlock({'X-Host-Pin': byId('pin').value, 'X-Host-Device': hostDevice()});
  });
  byId('lock').addEventListener('click', () => lock());
  byId('add-player').addEventListener('click', addRow);
  byId('preset').addEventListener('change', applyPreset);
  byId('start').addEventListener('click', startGame);
  byId('deal').addEventListener('click', deal);
  byId('flip').addEventListener('click', flip);
  byId('end-seat').addEventListener('change', showEndLabel);
  byId('end').addEventListener('click', endRound);
  byId('import').addEventListener('change', importRecord);
  byId('camera').addEventListener('toggle', () => (byId('camera').open ? startCamera() : stopCamera()));
  byId('card-height').addEventListener('change', setCardHeight);
  byId('save-layout').addEventListener('click', saveLayout);
  byId('record-older').addEventListener('click', showOlder);
  byId('reload-layout').addEventListener('click', () => loadLayout(_('Zones as last saved.')));
  byId('spread-seats').addEventListener('click', spreadSeats);
  new ResizeObserver(placeZones).observe(byId('camera-view'));
}

wire();
if (hostPass()) unlock({'X-Host-Pass': hostPass()});
