// A figure of the reliability suite: one line on the test's output, which `npm run test:reliability`
// (test/reliability/report.ts) collects into RELIABILITY.md.
export function figure(name: string, value: string | number): void {
  process.stdout.write(`[figure] ${name}: ${value}\n`);
}
