// "The evening in numbers": when a game ends, every phone shows each player's figures for the evening it was
// played on, and can save them as a picture (a PNG drawn here, on a canvas) to share.

import {api, byId, el} from './common.js';
import {fillFigures} from './figures.js';
import {_, ngettext} from './i18n.js';
import {FIGURES, figureValue} from './words.js';

// The game's end this phone has already been shown (or closed): a live update does not open it again.
let shownFor = sessionStorage.getItem('tabletop-evening') || '';
let evening = null;

export function showEvening(view) {
  const key = view.game && view.over ? `${view.players.join(',')}:${view.lines}` : '';
  if (!key) {
    byId('evening').hidden = true;
    return;
  }
  if (key === shownFor) return;
  shownFor = key;
  sessionStorage.setItem('tabletop-evening', key);
  api('/api/evening').then(result => {
    if (!result.ok || !result.data.players.length) return;  // a table that keeps no log has no evenings
    evening = result.data;
    fillFigures(byId('evening-figures'), evening.players);
    byId('evening-when').textContent = eveningWords(evening);
    byId('evening').hidden = false;
    byId('evening').scrollIntoView({block: 'nearest'});
  });
}

const eveningWords = data => ngettext('{date}: {n} game', '{date}: {n} games', data.games, {date: data.evening});

// The same table drawn on a canvas, twice the size for a sharp picture, and offered as a PNG download.
function savePicture() {
  if (!evening) return;
  const names = evening.players.map(player => player.name);
  const labelWidth = 250;
  const columnWidth = 90;
  const rowHeight = 30;
  const canvas = document.createElement('canvas');
  const scale = 2;
  canvas.width = (labelWidth + columnWidth * names.length + 20) * scale;
  canvas.height = (90 + rowHeight * (FIGURES.length + 1)) * scale;
  const pen = canvas.getContext('2d');
  pen.scale(scale, scale);
  pen.fillStyle = '#121417';
  pen.fillRect(0, 0, canvas.width, canvas.height);
  pen.fillStyle = '#ffd23f';
  pen.font = 'bold 22px sans-serif';
  pen.fillText(_('The evening in numbers'), 10, 32);
  pen.fillStyle = '#b7bec7';
  pen.font = '16px sans-serif';
  pen.fillText(`${eveningWords(evening)} · tabletop`, 10, 58);
  const rows = [['', ...names], ...FIGURES.map(([key, words]) => [words, ...evening.players.map(p => figureValue(p[key]))])];
  rows.forEach((row, r) => {
    const y = 90 + rowHeight * r;
    pen.fillStyle = r === 0 ? '#ffd23f' : '#f4f5f6';
    pen.font = `${r === 0 ? 'bold ' : ''}16px sans-serif`;
    row.forEach((cell, c) => {
      pen.textAlign = c === 0 ? 'left' : 'right';
      pen.fillText(cell, c === 0 ? 10 : labelWidth + columnWidth * c, y, c === 0 ? labelWidth - 10 : columnWidth - 8);
    });
  });
  canvas.toBlob(blob => {
    const link = el('a', {href: URL.createObjectURL(blob), download: `tabletop-${evening.evening}.png`});
    document.body.append(link);
    link.click();
    link.remove();
  }, 'image/png');
}

byId('evening-save').addEventListener('click', savePicture);
byId('evening-close').addEventListener('click', () => { byId('evening').hidden = true; });
