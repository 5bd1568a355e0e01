/** One key of the on-screen layout: the `KeyboardEvent.code` it listens for, its label and width in key units. */
export interface LayoutKey {
  readonly code: string;
  readonly label: string;
  readonly width?: number;
}

const row = (codes: string): LayoutKey[] =>
  codes.split(' ').map((c) => {
    const [code = '', label = code, width] = c.split('|');
    return width ? { code, label, width: Number(width) } : { code, label };
  });
const letters = (s: string) => s.split('').map((ch) => `Key${ch}|${ch}`).join(' ');

/**
 * A laptop keyboard (US layout by physical position: `code` is the key, not the character, so it
 * works for any language). Fn is left out: it never reaches the operating system.
 */
export const LAPTOP_LAYOUT: readonly (readonly LayoutKey[])[] = [
  row('Escape|Esc F1 F2 F3 F4 F5 F6 F7 F8 F9 F10 F11 F12 Delete|Del'),
  row('Backquote|` Digit1|1 Digit2|2 Digit3|3 Digit4|4 Digit5|5 Digit6|6 Digit7|7 Digit8|8 Digit9|9 Digit0|0 Minus|- Equal|= Backspace|⌫|2'),
  row(`Tab|Tab|1.5 ${letters('QWERTYUIOP')} BracketLeft|[ BracketRight|] Backslash|\\|1.5`),
  row(`CapsLock|Caps|1.75 ${letters('ASDFGHJKL')} Semicolon|; Quote|' Enter|Enter|2.25`),
  row(`ShiftLeft|Shift|2.25 ${letters('ZXCVBNM')} Comma|, Period|. Slash|/ ShiftRight|Shift|2.75`),
  row('ControlLeft|Ctrl|1.5 MetaLeft|Win|1.25 AltLeft|Alt|1.25 Space|Space|5.5 AltRight|AltGr|1.25 ControlRight|Ctrl|1.25 ArrowLeft|← ArrowUp|↑ ArrowDown|↓ ArrowRight|→'),
];

export const LAYOUT_CODES: readonly string[] = LAPTOP_LAYOUT.flat().map((k) => k.code);

/** The keys not yet pressed, by label, for the result's detail. */
export function missingKeys(pressed: ReadonlySet<string>): string[] {
  return LAPTOP_LAYOUT.flat()
    .filter((k) => !pressed.has(k.code))
    .map((k) => k.label);
}

/**
 * Escape three times in a row ends the capture (Escape is itself a key under test, so one press
 * must not end it). Returns the new streak.
 */
export function escapeStreak(streak: number, code: string): number {
  return code === 'Escape' ? streak + 1 : 0;
}
