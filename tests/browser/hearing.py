"""What a page sounds, as the browser makes it: a script Playwright puts in the page records the
tones of every sound the page plays through the Web Audio API (the site's own code has no hook
for tests), and `heard(page)` names the sounds by their tones (`static/js/sound.js`)."""

from __future__ import annotations

SOUNDS_BY_TONES = {
    (660,): "move",
    (392, 262): "take",
    (523, 784): "turn",
    (988, 988): "lowtime",
    (523, 659, 784): "end",
    (784, 988, 1319): "challenge",
}

# Each sound makes its tones in one go: the tones made before the page's next task are one sound.
RECORD_TONES = """(() => {
  if (window.tonesHeard || !window.AudioContext) return;
  window.tonesHeard = [];
  const make = window.AudioContext.prototype.createOscillator;
  let sound = null;
  window.AudioContext.prototype.createOscillator = function () {
    const tone = make.call(this);
    if (sound === null) {
      sound = [];
      window.tonesHeard.push(sound);
      setTimeout(() => { sound = null; });
    }
    const mine = sound;
    const start = tone.start.bind(tone);
    tone.start = (...args) => { mine.push(tone.frequency.value); return start(...args); };
    return tone;
  };
})()"""


def listen(page) -> None:
    """Record the page's sounds, now and on every page it opens next."""
    page.add_init_script(RECORD_TONES)
    page.evaluate(f"() => {RECORD_TONES}")


def heard(page) -> list[str]:
    """The sounds the page has played, in order."""
    return [SOUNDS_BY_TONES.get(tuple(round(f) for f in tones), f"tones {tones}")
            for tones in page.evaluate("() => window.tonesHeard || []")]
