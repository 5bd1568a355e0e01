import { useEffect, useRef, useState } from 'react';
import { Verdict } from './verdict.js';

/** The colour fields, in the order that shows stuck (bright on black) then dead (dark on white/colour) pixels. */
export const DISPLAY_COLOURS = [
  ['#000000', 'Black'],
  ['#ffffff', 'White'],
  ['#ff0000', 'Red'],
  ['#00ff00', 'Green'],
  ['#0000ff', 'Blue'],
  ['#808080', 'Grey'],
] as const;

/** Full-screen colour fields: any key or click shows the next; Escape leaves early. */
export function DisplayTest() {
  const [index, setIndex] = useState<number | null>(null);
  const [seen, setSeen] = useState(false);
  const overlay = useRef<HTMLDivElement>(null);
  const start = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (index !== null) overlay.current?.focus();
    else start.current?.focus();
  }, [index]);

  const advance = () =>
    setIndex((i) => {
      const next = (i ?? -1) + 1;
      if (next >= DISPLAY_COLOURS.length) {
        setSeen(true);
        return null;
      }
      return next;
    });
  const colour = index === null ? undefined : DISPLAY_COLOURS[index];
  return (
    <div className="runner">
      <p>Each colour fills the whole screen. Look for dots that stay lit, black dots, lines or blotches.</p>
      <button ref={start} type="button" className="primary" onClick={() => setIndex(0)}>
        {seen ? 'Show the colours again' : 'Start colour test'}
      </button>
      {colour && (
        <div
          ref={overlay}
          className="colour-field"
          style={{ background: colour[0] }}
          tabIndex={0}
          role="button"
          aria-label={`${colour[1]} field ${index! + 1} of ${DISPLAY_COLOURS.length}. Press any key for the next colour, Escape to stop.`}
          data-colour={colour[1]}
          onClick={advance}
          onKeyDown={(e) => {
            e.preventDefault();
            if (e.key === 'Escape') setIndex(null);
            else advance();
          }}
        >
          <span className="colour-hint" style={{ color: colour[0] === '#000000' || colour[0] === '#0000ff' ? '#555' : '#333' }}>
            {index! + 1}/{DISPLAY_COLOURS.length}
          </span>
        </div>
      )}
      {seen && <p>Did every colour look even, with no odd dots or lines?</p>}
      <Verdict id="display" detail={seen ? `${DISPLAY_COLOURS.length} colour fields shown` : undefined} />
    </div>
  );
}
