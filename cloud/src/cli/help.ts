import type { ProgramHelp } from '@erasure/shared';

/** `erasure-cloud`'s commands as `--help` and `help <command>` describe them (CONTRACT.md "Binaries"). */
export const CLOUD_HELP: ProgramHelp = {
  name: 'erasure-cloud',
  summary: 'The erasure cloud: entitlement, quota, assets, wipe results, certificates, webhooks, the web app and the public API.',
  // No default command: a bare `erasure-cloud` prints usage and exits 2, creating nothing, as every
  // other binary does; a server starts only on `serve` (issue 28 item 17).
  commands: [
    { name: 'serve', summary: 'the cloud on HOST:PORT (default 127.0.0.1:3000), with its own certificate and webhook workers' },
    { name: 'sandbox', summary: 'the sandbox integrators test against (default port 8788, its own DATA_DIR/sandbox.sqlite)' },
    { name: 'worker', args: '[--lease-seconds N]', summary: 'more certificate and webhook workers beside serve, on the same database; stops on SIGTERM' },
    { name: 'keygen', args: '[--json]', summary: 'fresh device-token keys and an internal API secret' },
    {
      name: 'admin',
      args: '<command> [--flags] [--json]',
      summary: [
        'accounts, users, tokens, API keys and webhooks on the configured database:',
        'create-account --name N [--inactive] | set-account-active --account ID --active true|false',
        'create-user --account ID --email E --password P [--role admin|technician|staff] [--name N]',
        'mint-device-token --account ID [--product engine|hotswap] [--quota N|unlimited] [--user-email E] [--expires-in 90d] [--customer C] [--lot L] [--site S] [--language en|de|fr|es]',
        '  [--erasure-method M [--verification full|every-pass|sample:N] [--allowed-methods a,b]]  (the token\'s own erasure policy; default: the account\'s)',
        '  (without --quota/--expires-in: the account\'s token terms, else DEVICE_TOKEN_DEFAULT_QUOTA and DEVICE_TOKEN_DEFAULT_LIFETIME_DAYS: 100 check-ins, 90 days)',
        'set-token-status --jti J --status active|revoked|suspended|disabled',
        'mint-api-key --account ID [--name N] | revoke-api-key --id ID | list-certificates --account ID',
        'create-webhook --account ID --event-type T --url U [--auth-type none|bearer|basic] | rotate-webhook-secret --id ID',
        'copy-objects --to s3  (DATA_DIR/objects into the OBJECT_STORE=s3 bucket; idempotent, checksums compared, nothing deleted)',
      ].join('\n'),
    },
    { name: 'verify-pdf', args: 'FILE [--public-key B64] [--json]', summary: "checks a certificate PDF, or a lot certificate and each certificate attached to it, against the deployment's keys (exit 0 valid, 1 not)" },
    { name: 'certificate-public-key', args: '[--all] [--json]', summary: 'the public key certificates are verified with (--all: every key that ever signed)' },
    { name: 'rotate-certificate-key', args: '[--json]', summary: 'a fresh certificate signing key; earlier certificates still verify' },
    { name: 'migrate', args: '[--json]', summary: 'applies pending migrations to the configured database' },
    { name: 'copy-to-postgres', args: '[--from FILE] [--json]', summary: 'copies an SQLite cloud database into the empty PostgreSQL database DATABASE_URL names' },
  ],
  notes: ['The database is DATABASE_URL (PostgreSQL) when set, else DATA_DIR/cloud.sqlite. Every variable is in the operations guide.'],
};
