import { useState } from 'react';
import { useActions } from '../../store/use-kiosk.js';
import { Verdict } from './verdict.js';

export const TOUCH_COLS = 6;
export const TOUCH_ROWS = 4;

/**
 * Touch every square. Only touch and pen count (a mouse click proves nothing about the panel);
 * the last square records `passed` by itself.
 */
export function TouchTest() {
  const actions = useActions();
  const [hit, setHit] = useState<ReadonlySet<number>>(new Set());
  const total = TOUCH_COLS * TOUCH_ROWS;
  const touch = (i: number, pointerType: string) => {
    if (pointerType === 'mouse' || hit.has(i)) return;
    const next = new Set(hit).add(i);
    setHit(next);
    if (next.size === total) void actions.recordTest('touchscreen', 'passed', `all ${total} squares touched`);
  };
  return (
    <div className="runner">
      <div className="touch-grid" style={{ gridTemplateColumns: `repeat(${TOUCH_COLS}, 1fr)` }} aria-label="Touch grid" data-testid="touch-grid">
        {Array.from({ length: total }, (_, i) => (
          <div
            key={i}
            className={hit.has(i) ? 'cell hit' : 'cell'}
            data-cell={i}
            onPointerDown={(e) => touch(i, e.pointerType)}
            onPointerEnter={(e) => e.buttons !== 0 && touch(i, e.pointerType)}
          />
        ))}
      </div>
      <p role="status" className="muted">
        {hit.size} of {total} squares touched. Mouse clicks do not count.
      </p>
      <Verdict id="touchscreen" detail={hit.size > 0 ? `${hit.size} of ${total} squares touched` : undefined} />
    </div>
  );
}
