/** health, changes and telemetry: the dashboard's Memory and Telemetry sections on the command line. */
import type { Command } from 'commander';
import { memoryDiff, memoryHealth } from '../../app/health.js';
import { hookTelemetry } from '../../app/telemetry.js';
import { runOperation } from '../run.js';

const moves = (
  title: string,
  list: { pattern: string; confidence_before: number; confidence_after: number; reason?: string }[],
): string[] =>
  list.length
    ? [
        `${title}: ${list.length}`,
        ...list.map(
          (m) => `  ${m.pattern} (${m.confidence_before.toFixed(2)} -> ${m.confidence_after.toFixed(2)})${m.reason ? `: ${m.reason}` : ''}`,
        ),
      ]
    : [`${title}: 0`];

/** A count a list was cut at says so: "200" alone read as the total. */
const capped = (n: number, limit: number): string =>
  n >= limit ? `${n} shown, the first of more (narrow --from and --to for the rest)` : String(n);

export function registerHealthCommands(program: Command): void {
  program
    .command('health')
    .description("The memory's tiers (working, learning, long-term) and every quality metric against its healthy range")
    .action(async (_o: unknown, cmd: Command) => {
      await runOperation(cmd, memoryHealth, {}, (h) => [
        ...h.tiers.map((t) => `${t.tier} ${t.name}: ${t.items.map((i) => `${i.count} ${i.label}`).join(', ')}`),
        '',
        ...h.quality.map(
          (q) =>
            `${q.healthy === null ? ' ' : q.healthy ? '✓' : '✗'} ${q.label}: ${q.value} (healthy: ${q.healthy_range}${q.healthy === null && q.metric !== 'memory_types' ? '; not measured yet' : ''})`,
        ),
      ]);
    });

  program
    .command('changes')
    .description('What changed between two dates: instincts created, changed and forgotten; facts added and expired')
    .requiredOption('--from <date>', 'first day (YYYY-MM-DD or an ISO-8601 instant)')
    .option('--to <date>', 'last day, included (YYYY-MM-DD or an ISO-8601 instant; default: now)')
    .action(async (o: { from: string; to?: string }, cmd: Command) => {
      await runOperation(cmd, memoryDiff, { from: o.from, to: o.to }, (d) => [
        `From ${d.from} to ${d.to}`,
        ...moves('Instincts created', d.instincts.created),
        ...moves('Instincts changed', d.instincts.changed),
        ...moves('Instincts forgotten (by hand)', d.instincts.forgotten),
        ...moves('Instincts taken back by learning', d.instincts.taken_back),
        `Instincts merged: ${d.instincts.merged.length}`,
        ...d.instincts.merged.map((m) => `  ${m.pattern} into ${m.into} (${m.at.slice(0, 10)}, ${m.source || 'unknown'})`),
        ...moves('Instincts faded (still given when a prompt clearly matches)', d.instincts.faded),
        `Facts added: ${capped(d.facts.added.length, d.facts.limit)}`,
        ...d.facts.added.map((f) => `  ${f.statement}`),
        `Facts expired: ${capped(d.facts.expired.length, d.facts.limit)}`,
        ...d.facts.expired.map((f) => `  ${f.statement} (${f.expired_reason})`),
      ]);
    });

  program
    .command('telemetry')
    .description('Hook calls per event, p50/p95/p99 latency, failures and timeouts, and the last failure messages')
    .action(async (_o: unknown, cmd: Command) => {
      await runOperation(cmd, hookTelemetry, {}, (t) => {
        if (t.calls === 0) return 'No hook calls recorded yet.';
        return [
          `${t.calls} hook calls since ${t.since}${t.skipped_lines ? ` (${t.skipped_lines} unreadable lines skipped)` : ''}`,
          ...t.events.map(
            (e) =>
              `  ${e.event}: ${e.calls} calls, p50 ${e.p50_ms} ms, p95 ${e.p95_ms} ms, p99 ${e.p99_ms} ms; ${e.failed} failed, ${e.timeout} timed out, ${e.slow} over budget`,
          ),
          ...(t.log.length ? ['Last failures:', ...t.log.map((l) => `  ${l.ts} ${l.message}`)] : []),
        ];
      });
    });
}
