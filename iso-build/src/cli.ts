import { readFileSync, mkdirSync, statSync } from 'node:fs';
import { helpAnswer, type ProgramHelp } from '@erasure/shared';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { assembleIso, assemblePxe, sizeMiB } from './assemble.js';
import { buildBaseLayer, DEFAULT_SOURCE } from './base-layer.js';
import { cacheDir } from './cache.js';
import { checkPersonalization, PersonalizationError, type Personalization } from './personalization.js';
import { personalizeIso } from './personalize.js';
import { missingMessage, missingPrerequisites, readPrerequisites } from './prerequisites.js';
import { buildProjectLayer } from './project-layer.js';

const ISO_HELP: ProgramHelp = {
  name: 'erasure-iso',
  summary: 'Builds the erasure boot image and personalizes copies of it.',
  commands: [
    {
      name: 'build',
      args: '[--device-token-file F] [--gateway-url URL] [--boot-args "erasure.mode=..."] [--out ISO] [--rebuild-project]',
      summary: [
        'builds iso-build/out/erasure-<version>-amd64.iso and iso-build/out/pxe/ (layers cached in ERASURE_ISO_CACHE;',
        '--rebuild-project rebuilds the project layer as a code change would). The Debian packages it needs are',
        'listed in iso-build/prerequisites.txt, and npm run iso:deps installs them',
      ].join('\n'),
    },
    {
      name: 'personalize',
      args: 'BASE.iso --device-token-file F --gateway-url URL [--boot-args "..."] --out OUT.iso',
      summary: 'a copy of BASE.iso carrying the token and gateway, in seconds',
    },
  ],
};

const here = dirname(fileURLToPath(import.meta.url));
const packageDir = join(here, '..');
const repo = join(packageDir, '..');

function personalizationOf(values: Record<string, unknown>): Personalization {
  const file = typeof values['device-token-file'] === 'string' ? values['device-token-file'] : undefined;
  return checkPersonalization({
    ...(file ? { deviceToken: readFileSync(file, 'utf8') } : {}),
    ...(typeof values['gateway-url'] === 'string' ? { gatewayUrl: values['gateway-url'] } : {}),
    ...(typeof values['boot-args'] === 'string' ? { bootArgs: values['boot-args'] } : {}),
  });
}

const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Raised before anything is written, so a machine without the tools gets advice, not a half-built image. */
class MissingTools extends Error {}

async function build(values: Record<string, unknown>): Promise<void> {
  const missing = missingPrerequisites(readPrerequisites(join(packageDir, 'prerequisites.txt')), process.env);
  if (missing.length > 0) throw new MissingTools(missingMessage(missing));
  const started = performance.now();
  const version = (JSON.parse(readFileSync(join(repo, 'engine-agent', 'package.json'), 'utf8')) as { version: string }).version;
  const personalization = personalizationOf(values);
  const out = resolve(typeof values.out === 'string' ? values.out : join(packageDir, 'out', `erasure-${version}-amd64.iso`));
  mkdirSync(dirname(out), { recursive: true });
  const cache = cacheDir(process.env);
  const imageDir = join(packageDir, 'image');

  let t = performance.now();
  const base = await buildBaseLayer({ imageDir, cache, source: DEFAULT_SOURCE });
  const baseTime = seconds(t);
  t = performance.now();
  const project = await buildProjectLayer({ repo, cache, rebuild: values['rebuild-project'] === true });
  const projectTime = seconds(t);
  t = performance.now();
  await assembleIso({ base, project, imageDir, out, personalization, info: { version, built_at: new Date().toISOString(), base_key: base.key, project_key: project.key, suite: DEFAULT_SOURCE.suite } });
  const isoTime = seconds(t);
  t = performance.now();
  await assemblePxe({ base, project, dir: join(dirname(out), 'pxe'), personalization });
  const pxeTime = seconds(t);

  const hit = (h: boolean) => (h ? 'cached' : 'built');
  process.stdout.write(
    [
      `image ${out} (${sizeMiB(out)} MiB)`,
      `  packages layer: ${hit(base.hits.packages)}; base layer ${base.key}: ${hit(base.hits.base)} (${baseTime})`,
      `  project layer ${project.key}: ${hit(project.hit)} (${projectTime}, ${sizeMiB(project.squashfs)} MiB)`,
      `  kiosk shell: ${project.electron.included ? `Electron ${project.electron.version} (its binary is in the project layer)` : `Chromium (Electron's binary is not in the project layer: ${project.electron.reason})`}`,
      `  ISO assembled in ${isoTime}; PXE files in ${join(dirname(out), 'pxe')} in ${pxeTime}`,
      `  device token: ${personalization.deviceToken ? 'baked in' : 'none (personalize the image, or the kiosk stays locked)'}; gateway: ${personalization.gatewayUrl ?? 'none'}`,
      `total ${seconds(started)}`,
      '',
    ].join('\n'),
  );
}

async function personalize(values: Record<string, unknown>, positionals: string[]): Promise<void> {
  const base = positionals[1];
  const out = typeof values.out === 'string' ? values.out : undefined;
  if (!base || !out) throw new PersonalizationError('personalize needs BASE.iso and --out OUT.iso');
  const personalization = personalizationOf(values);
  if (!personalization.deviceToken || !personalization.gatewayUrl) throw new PersonalizationError('personalize needs --device-token-file and --gateway-url');
  const started = performance.now();
  await personalizeIso(base, out, personalization);
  process.stdout.write(`image ${out} (${(statSync(out).size / 1024 ** 2).toFixed(0)} MiB) personalized in ${seconds(started)}\n`);
}

async function main(argv: string[]): Promise<number> {
  const help = helpAnswer(ISO_HELP, argv);
  if (help) {
    process[help.stream].write(`${help.text}\n`);
    return help.exitCode;
  }
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      'device-token-file': { type: 'string' },
      'gateway-url': { type: 'string' },
      'boot-args': { type: 'string' },
      out: { type: 'string' },
      'rebuild-project': { type: 'boolean', default: false },
    },
  });
  if (positionals[0] === 'personalize') await personalize(values, positionals);
  else await build(values);
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    process.stderr.write(`erasure-iso: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exitCode = 1;
  },
);
