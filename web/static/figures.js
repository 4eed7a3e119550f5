// Each player's figures as a table, a column per player: on the evening panel, the history and a past game.

import {el} from './common.js';
import {FIGURES, figureValue} from './words.js';

export function fillFigures(table, players) {
  table.replaceChildren(
    el('thead', {}, el('tr', {}, el('th', {}, ''), ...players.map(player => el('th', {scope: 'col'}, player.name)))),
    el('tbody', {}, ...FIGURES.map(([key, words]) => el('tr', {'data-figure': key},
      el('th', {scope: 'row'}, words), ...players.map(player => el('td', {}, figureValue(player[key])))))));
}
