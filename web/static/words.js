// What the pages say about the game, in the page's language, written from the API's codes: cards, colours,
// penalties, notices and every kind of event in the record. The API itself stays language-free.

import {_, ngettext} from './i18n.js';

const COLORS = {red: _('Red'), yellow: _('Yellow'), green: _('Green'), blue: _('Blue')};

export const colorName = color => (COLORS[color] || '—');

const FACES = {
  'skip': _('skip'), 'reverse': _('reverse'), 'draw-two': _('draw two'),
  'wild': _('Wild'), 'wild-draw-four': _('Wild draw four'),
  'wild-shuffle-hands': _('Wild shuffle hands'), 'wild-swap-hands': _('Wild swap hands'),
  'wild-customizable': _('Wild customizable'),
};

// 'red-draw-two' → {color: 'red', face: 'draw-two'}; wilds (every name that starts with 'wild') have no colour.
export function parseCard(name) {
  if (name.startsWith('wild')) return {color: null, face: name};
  const dash = name.indexOf('-');
  return {color: name.slice(0, dash), face: name.slice(dash + 1)};
}

export function cardLabel(name) {
  const {color, face} = parseCard(name);
  const faceWords = FACES[face] || face;
  return color ? _('{color} {face}', {color: colorName(color), face: faceWords}) : faceWords;
}

const REASONS = {
  'missed-uno': name => _('{name} did not call UNO', {name}),
  'false-uno': name => _('{name} called UNO without one card left', {name}),
  'illegal-wild-draw-four': name => _('{name} played a Wild Draw Four while holding the active colour', {name}),
  'challenge-lost': name => _('{name} lost a Wild Draw Four challenge', {name}),
  'illegal-play': name => _('{name} played a card that does not match', {name}),
  'out-of-turn': name => _('{name} played out of turn', {name}),
};

// "Bo did not call UNO: draws 2 cards".
export function penaltyText(penalty, players) {
  const name = players[penalty.seat];
  const why = REASONS[penalty.reason] ? REASONS[penalty.reason](name) : `${name}: ${penalty.reason}`;
  const owes = penalty.cards ? ngettext('draws {n} card', 'draws {n} cards', penalty.cards) : _('a warning');
  return _('{why}: {owes}', {why, owes});
}

const HEADINGS = {
  'missed-uno': _('MISSED UNO!'),
  'false-uno': _('FALSE UNO!'),
  'illegal-wild-draw-four': _('ILLEGAL +4!'),
  'illegal-play': _('WRONG CARD!'),
  'out-of-turn': _('OUT OF TURN!'),
  'challenge-lost': _('CHALLENGE LOST!'),
};

export const penaltyHeading = reason => (HEADINGS[reason] || _('PENALTY!'));

const NOTICES = {
  'game-over': _('the game is over'),
  'no-round-in-play': _('no round is being played'),
  'round-already-started': _('the round has already started'),
  'no-wild-to-name': _('there is no wild waiting for a colour'),
  'not-the-wild-player': _('only the player of the wild names its colour'),
  'not-your-turn': _('it is not that player’s turn'),
  'nothing-to-catch': _('that player owes no UNO call'),
  'challenges-are-off': _('challenges are off in these rules'),
  'no-wild-draw-four-to-challenge': _('there is no Wild Draw Four to challenge'),
  'only-the-victim-may-challenge': _('only the player hit by the Wild Draw Four may challenge'),
  'challenge-undecided': _('a challenge was never decided'),
  'challenge-undecidable': _('the hand received cards since, so it cannot decide the challenge'),
  'round-not-over': _('the round is not over'),
  'nothing-to-score': _('there is nothing to score'),
  'no-swap-due': _('no swap is due'),
  'unseen-draw': _('a draw nobody saw'),
};

export const noticeText = reason => (NOTICES[reason] || reason);

const PRESETS = {official: _('official'), stacking: _('stacking'), party: _('party'), eastern: _('eastern')};

export const presetName = preset => (PRESETS[preset] || preset);

// One line of the record as people say it at the table: "Bo played Green draw two".
export function describe(event, players) {
  const name = seat => (seat === null || seat === undefined ? _('The player to play') : players[seat]);
  const who = {name: name(event.seat)};
  switch (event.type) {
    case 'game': return _('New game: {players} ({preset} rules)', {players: event.players.join(', '), preset: presetName((event.rules || {}).preset || 'official')});
    case 'deal': return _('{name} dealt', {name: players[event.dealer]});
    case 'flip': return _('Flipped {card}', {card: cardLabel(event.card)});
    case 'play': return _('{name} played {card}', {...who, card: cardLabel(event.card)});
    case 'color': return _('{name} named {color}', {...who, color: colorName(event.color)});
    case 'unsure': return _('A card from {name} the camera could not read surely ({guesses})',
      {...who, guesses: event.guesses.slice(0, 3).map(([card, p]) => `${cardLabel(card)} ${Math.round(p * 100)}%`).join(', ')});
    case 'draw': return ngettext('{name} drew {n} card', '{name} drew {n} cards', event.count || 1, who);
    case 'pass': return _('{name} passed', who);
    case 'uno': return _('{name} called UNO', who);
    case 'catch': return _('{name} caught {target} without UNO', {...who, target: players[event.target]});
    case 'challenge':
      if (event.guilty === true) return _('{name} challenged the Wild Draw Four: guilty', who);
      if (event.guilty === false) return _('{name} challenged the Wild Draw Four: not guilty', who);
      return _('{name} challenged the Wild Draw Four', who);
    case 'reveal': return _('{name} showed {cards}', {...who, cards: event.cards.map(cardLabel).join(', ') || _('no cards')});
    case 'points': return ngettext('{name}’s hand scored {n} point', '{name}’s hand scored {n} points', event.points, who);
    case 'swap': return _('{name} swapped hands with {other}', {...who, other: players[event.with]});
    case 'end': return _('Round over: {name} went out', who);
    case 'retract': return _('Undo #{ref}', {ref: event.ref});
    case 'amend': return _('#{ref} was really: {event}', {ref: event.ref, event: describe(event.event, players)});
    case 'insert': return _('Missed before #{ref}: {event}', {ref: event.ref, event: describe(event.event, players)});
    default: return event.type;
  }
}

// Each player's figures (docs/api.md, /api/statistics), in the order the history and the evening show them.
export const FIGURES = [
  ['games', _('Games')],
  ['games_won', _('Games won')],
  ['rounds', _('Rounds')],
  ['rounds_won', _('Rounds won')],
  ['points', _('Points')],
  ['average_points', _('Points a round')],
  ['uno_calls', _('UNO called')],
  ['uno_missed', _('UNO forgotten')],
  ['catches', _('Caught others')],
  ['wild_draw_fours', _('Wild Draw Fours played')],
  ['wild_draw_fours_challenged', _('Their Wild Draw Fours challenged')],
  ['challenges_won', _('Challenges won')],
  ['challenges_lost', _('Challenges lost')],
  ['out_of_turn', _('Out of turn')],
  ['misplays', _('Wrong cards')],
];

export const figureValue = value => (value === null || value === undefined ? '–' : String(value));
