// The buzzer, played with WebAudio: one pattern per kind of news, so the table can tell them apart by ear.
// Browsers only let a page make sound after a user gesture, hence enable() from a click.

// A pattern is a list of [frequency in Hz (0: silence), seconds]; `wave` is the oscillator's shape.
const PATTERNS = {
  'missed-uno': {wave: 'square', notes: [[880, .12], [0, .07], [880, .12], [0, .07], [880, .12], [0, .07], [880, .3]]},
  'false-uno': {wave: 'square', notes: [[660, .15], [0, .1], [660, .15]]},
  'illegal-wild-draw-four': {wave: 'sawtooth', notes: [[330, .18], [0, .05], [262, .18], [0, .05], [196, .18], [0, .05], [147, .45]]},
  'illegal-card': {wave: 'sawtooth', notes: [[110, .9]]},
  'challenge-lost': {wave: 'triangle', notes: [[392, .3], [370, .3], [349, .3], [330, .7]]},
  'round-over': {wave: 'triangle', notes: [[523, .14], [659, .14], [784, .3]]},
  'game-over': {wave: 'triangle', notes: [[523, .15], [659, .15], [784, .15], [1047, .3], [0, .08], [784, .15], [1047, .6]]},
  'on': {wave: 'sine', notes: [[880, .08]]},
};

// Reasons of docs/record.md penalties, mapped onto the patterns above.
const BY_REASON = {
  'missed-uno': 'missed-uno',
  'false-uno': 'false-uno',
  'illegal-wild-draw-four': 'illegal-wild-draw-four',
  'illegal-play': 'illegal-card',
  'out-of-turn': 'illegal-card',
  'challenge-lost': 'challenge-lost',
};

const VOLUME = 0.25;
const RAMP = 0.01;  // seconds of fade in and out, so notes do not click

let context = null;

export function isOn() {
  return context !== null && context.state === 'running';
}

export async function enable() {
  context = context || new AudioContext();
  await context.resume();
  play('on');
}

export async function disable() {
  if (context) await context.suspend();
}

export function patternFor(reason) {
  return BY_REASON[reason] || 'illegal-card';
}

export function play(name) {
  if (!isOn()) return;
  const {wave, notes} = PATTERNS[name];
  let at = context.currentTime + 0.02;
  for (const [frequency, seconds] of notes) {
    if (frequency) tone(wave, frequency, at, seconds);
    at += seconds;
  }
}

function tone(wave, frequency, start, seconds) {
  const oscillator = context.createOscillator();
  const gain = context.createGain();
  oscillator.type = wave;
  oscillator.frequency.value = frequency;
  gain.gain.setValueAtTime(0, start);
  gain.gain.linearRampToValueAtTime(VOLUME, start + RAMP);
  gain.gain.setValueAtTime(VOLUME, start + seconds - RAMP);
  gain.gain.linearRampToValueAtTime(0, start + seconds);
  oscillator.connect(gain).connect(context.destination);
  oscillator.start(start);
  oscillator.stop(start + seconds);
}
