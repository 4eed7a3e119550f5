// A phone that stays awake while a round is live: the Screen Wake Lock API where the browser has it, and
// nothing at all (no message, no error) where it has not. The lock is let go between rounds and after the game,
// and asked for again when the page comes back into view (a browser drops it when the page is hidden).

let live = false;
let lock = null;
let asking = false;  // a request on its way: the views that come meanwhile do not ask again

export const roundIsLive = view => Boolean(view.game && !view.over && view.round && view.turn !== null && view.turn !== undefined);

export function keepAwake(view) {
  live = roundIsLive(view);
  if (live) ask();
  else if (lock) lock.release().catch(() => {});
}

function ask() {
  if (!('wakeLock' in navigator) || asking || (lock && !lock.released) || document.visibilityState !== 'visible') return;
  asking = true;
  navigator.wakeLock.request('screen').then(sentinel => {
    lock = sentinel;
    if (!live) sentinel.release().catch(() => {});
  }).catch(() => {})  // refused (battery saver, no user gesture yet): the screen sleeps as it always did
    .finally(() => { asking = false; });
}

document.addEventListener('visibilitychange', () => { if (live) ask(); });
