// Lot forecast error (issue 32), in simulated time: a lot of drives of mixed rates erased on a
// few slots (bays), written and read back; once a third of the lot is done, the floor view's
// forecast (shared/src/floor-forecast.ts, built: run `npm run build`) is compared with the actual
// finish of the simulation. Baseline: the naive forecast, elapsed time × 3 for the whole lot. Also
// printed: the same forecast without the drives' media type (one pooled rate), as it was first built.
//
//   node bench/floor-forecast.js [--drives 48] [--slots 8] [--lots 200]
//
// Goal: within 10 % of the time left, once a third of the lot is done.
import { parseArgs } from 'node:util';
import { forecastSeconds } from '../shared/dist/floor-forecast.js';

const { values } = parseArgs({ options: { drives: { type: 'string', default: '48' }, slots: { type: 'string', default: '8' }, lots: { type: 'string', default: '200' } } });
const DRIVES = Number(values.drives);
const SLOTS = Number(values.slots);
const LOTS = Number(values.lots);

// A deterministic generator, so every run measures the same lots.
let seed = 2026;
const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);

// Mixed media as a floor sees them: HDDs at 120-200 MB/s and SATA SSDs at 350-500 MB/s (two to
// one); in the second mix a tenth of the drives are tired disks at 40-80 MB/s. The machine knows a
// drive's media type (the kernel's rotational flag) before it starts, never that it is tired.
function drive(tired) {
  const kind = random();
  const hdd = kind < tired + (1 - tired) * (2 / 3);
  const rate = kind < tired ? 40e6 + random() * 40e6 : hdd ? 120e6 + random() * 80e6 : 350e6 + random() * 150e6;
  const size = [250e9, 500e9, 1000e9, 2000e9][Math.floor(random() * 4)];
  return { size, rate, media_type: hdd ? 'HDD' : 'SSD' };
}

/** Runs the lot on the slots in order; returns when each drive started and finished. */
function simulate(lot) {
  const free = Array(SLOTS).fill(0);
  return lot.map((d) => {
    const slot = free.indexOf(Math.min(...free));
    const start = free[slot];
    const end = start + (2 * d.size) / d.rate;
    free[slot] = end;
    return { ...d, start, end };
  });
}

const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
const pct = (x) => `${(x * 100).toFixed(1)} %`;
const worst = (xs) => Math.max(...xs);

function measure(tired) {
  const errors = [];
  const pooled = [];
  const naive = [];
  for (let n = 0; n < LOTS; n++) {
    const lot = simulate(Array.from({ length: DRIVES }, () => drive(tired)));
    const finish = Math.max(...lot.map((d) => d.end));
    // The moment a third of the lot is done.
    const now = lot.map((d) => d.end).sort((a, b) => a - b)[Math.ceil(DRIVES / 3) - 1];
    const running = lot
      .filter((d) => d.start <= now && d.end > now)
      .map((d) => ({ bytes_total: d.size, bytes_done: Math.min(2 * d.size, (now - d.start) * d.rate), bytes_per_second: d.rate, eta_seconds: d.end - now, media_type: d.media_type }));
    const waiting = lot.filter((d) => d.start > now).map((d) => ({ bytes_total: d.size, bytes_done: 0, media_type: d.media_type }));
    const done = lot.filter((d) => d.end <= now).map((d) => ({ bytes_per_second: d.rate, media_type: d.media_type }));
    const left = finish - now;
    const error = (forecast) => Math.abs(forecast - left) / left;
    errors.push(error(forecastSeconds(running, waiting, done)));
    const untyped = (ds) => ds.map(({ media_type: _, ...d }) => d);
    pooled.push(error(forecastSeconds(untyped(running), untyped(waiting), untyped(done))));
    naive.push(Math.abs(now * 3 - finish) / left);
  }
  return `error of the time left: mean ${pct(mean(errors))}, worst ${pct(worst(errors))} | one pooled rate: mean ${pct(mean(pooled))}, worst ${pct(worst(pooled))} | baseline elapsed × 3: mean ${pct(mean(naive))}, worst ${pct(worst(naive))} | goal within 10 %: ${mean(errors) <= 0.1 ? 'OK' : 'MISSED'}`;
}

console.log(`floor forecast: ${LOTS} lots of ${DRIVES} drives on ${SLOTS} slots, once a third is done`);
console.log(`  HDDs and SSDs: ${measure(0)}`);
console.log(`  a tenth tired disks too: ${measure(0.1)}`);
