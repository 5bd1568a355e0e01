import { useEffect, useRef, useState } from 'react';
import { useActions } from '../../store/use-kiosk.js';
import { LAPTOP_LAYOUT, LAYOUT_CODES, escapeStreak, missingKeys } from './keyboard-layout.js';
import { Verdict } from './verdict.js';

/**
 * Press every key of the on-screen layout. While capturing, every key press is taken (even Tab and
 * Enter, which are keys under test); Escape three times in a row, or the Stop button, ends it.
 * Pressing the last key records `passed` by itself.
 */
export function KeyboardTest() {
  const actions = useActions();
  const [pressed, setPressed] = useState<ReadonlySet<string>>(new Set());
  const [capturing, setCapturing] = useState(false);
  const streak = useRef(0);
  const stopButton = useRef<HTMLButtonElement>(null);
  const startButton = useRef<HTMLButtonElement>(null);

  useEffect(() => {
    if (!capturing) return;
    const onKey = (e: KeyboardEvent) => {
      e.preventDefault();
      e.stopPropagation();
      streak.current = escapeStreak(streak.current, e.code);
      if (streak.current >= 3) {
        setCapturing(false);
        return;
      }
      if (!LAYOUT_CODES.includes(e.code)) return;
      setPressed((prev) => {
        if (prev.has(e.code)) return prev;
        const next = new Set(prev).add(e.code);
        if (next.size === LAYOUT_CODES.length) {
          setCapturing(false);
          void actions.recordTest('keyboard', 'passed', `all ${LAYOUT_CODES.length} keys pressed`);
        }
        return next;
      });
    };
    // Capture phase on window: the test sees the key before any button or shortcut does.
    window.addEventListener('keydown', onKey, { capture: true });
    return () => window.removeEventListener('keydown', onKey, { capture: true });
  }, [capturing, actions]);

  useEffect(() => {
    if (!capturing) startButton.current?.focus();
  }, [capturing]);

  const missing = missingKeys(pressed);
  return (
    <div className="runner">
      <div className="kbd" aria-label="Keyboard layout" data-testid="keyboard-layout">
        {LAPTOP_LAYOUT.map((r, i) => (
          <div key={i} className="kbd-row">
            {r.map((k) => (
              <span key={k.code} className={pressed.has(k.code) ? 'key hit' : 'key'} style={{ flexGrow: k.width ?? 1 }} data-code={k.code}>
                {k.label}
              </span>
            ))}
          </div>
        ))}
      </div>
      <p role="status" className="muted">
        {pressed.size} of {LAYOUT_CODES.length} keys pressed.{' '}
        {capturing ? 'Listening: press every key. Escape three times in a row stops.' : missing.length > 0 && pressed.size > 0 ? `Not pressed yet: ${missing.slice(0, 12).join(' ')}${missing.length > 12 ? ' …' : ''}` : ''}
      </p>
      <div className="row">
        {capturing ? (
          <button ref={stopButton} type="button" onClick={() => setCapturing(false)}>
            Stop listening
          </button>
        ) : (
          <button ref={startButton} type="button" className="primary" onClick={() => setCapturing(true)}>
            {pressed.size === 0 ? 'Start keyboard test' : 'Continue keyboard test'}
          </button>
        )}
        {!capturing && pressed.size > 0 && (
          <button type="button" onClick={() => setPressed(new Set())}>
            Start over
          </button>
        )}
      </div>
      {!capturing && <Verdict id="keyboard" detail={missing.length === 0 ? `all ${LAYOUT_CODES.length} keys pressed` : `not pressed: ${missing.join(' ')}`} />}
    </div>
  );
}
