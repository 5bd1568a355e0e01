import { Badge, type Tone } from './ui.js';

type Grade = 'A' | 'B' | 'C' | 'F';

const WORDS: Record<Grade, string> = { A: 'like new', B: 'used, good', C: 'worn', F: 'do not resell' };
// F is about resale, not the erase: never the red of a failed wipe beside a green "Completed".
const TONES: Record<Grade, Tone> = { A: 'pass', B: 'info', C: 'warning', F: 'neutral' };

/** The resale grade (issue 30 item 6) with its words; the reasons on hover. A muted dash when not graded. */
export function HealthGradeCell({ grade, reasons }: { grade: Grade | null; reasons: readonly string[] }) {
  if (!grade) return <span className="muted" title="Not graded (the agent that erased it does not grade health)">—</span>;
  const title = reasons.length ? `${grade}: ${WORDS[grade]}. ${reasons.join('; ')}` : `${grade}: ${WORDS[grade]}`;
  // The letter as a badge and its words under it in small type: the grid must still fit 1440 px.
  return (
    <span className="grade" title={title}>
      <Badge tone={TONES[grade]}>{grade}</Badge>
      <span className="muted small grade-words">{WORDS[grade]}</span>
    </span>
  );
}
