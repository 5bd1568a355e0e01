import { useEffect, useRef, useState } from 'react';
import { Verdict } from './verdict.js';

type Side = 'left' | 'right' | 'both';
const PAN: Record<Side, number> = { left: -1, right: 1, both: 0 };

/** A one-second 440 Hz tone per side through WebAudio; the operator says whether it was heard. */
export function AudioTest() {
  const ctx = useRef<AudioContext | null>(null);
  const [played, setPlayed] = useState<readonly Side[]>([]);
  const [error, setError] = useState<string | undefined>();
  useEffect(() => () => void ctx.current?.close().catch(() => undefined), []);

  const play = async (side: Side) => {
    try {
      // Created on the first press: browsers only allow sound after a user gesture.
      const ac = (ctx.current ??= new AudioContext());
      await ac.resume();
      const osc = ac.createOscillator();
      const gain = ac.createGain();
      const pan = ac.createStereoPanner();
      osc.frequency.value = 440;
      pan.pan.value = PAN[side];
      // Short ramps avoid the click of a tone starting or stopping at full volume.
      const t = ac.currentTime;
      gain.gain.setValueAtTime(0, t);
      gain.gain.linearRampToValueAtTime(0.4, t + 0.05);
      gain.gain.setValueAtTime(0.4, t + 0.95);
      gain.gain.linearRampToValueAtTime(0, t + 1);
      osc.connect(gain).connect(pan).connect(ac.destination);
      osc.start(t);
      osc.stop(t + 1.05);
      setPlayed((p) => (p.includes(side) ? p : [...p, side]));
      setError(undefined);
    } catch (e) {
      setError(`No sound output: ${e instanceof Error ? e.message : String(e)}`);
    }
  };
  return (
    <div className="runner">
      <div className="row">
        {(['left', 'right', 'both'] as const).map((side) => (
          <button key={side} type="button" className={played.includes(side) ? 'played' : ''} onClick={() => void play(side)}>
            ♪ Play {side === 'both' ? 'both speakers' : `${side} speaker`}
          </button>
        ))}
      </div>
      {error && <p className="error">{error}</p>}
      <Verdict id="audio" detail={played.length > 0 ? `tone played: ${played.join(', ')}` : undefined} />
    </div>
  );
}
