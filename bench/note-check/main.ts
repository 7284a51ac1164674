/**
 * The note check (issue 38): how often it catches a wrong value in a note, how often it flags a
 * right one, and how long it takes on a 60-minute visit's note, in Node (the module is pure, and
 * the window runs the same code).
 *
 *   node --import tsx bench/note-check/main.ts [--seed 38] [--visits 200] [--runs 15] [--quick] [--examples]
 *
 * Needs no build and starts nothing. --quick: 30 visits and 5 timed runs (not for the report);
 * --examples prints the first false flags and missed errors.
 */
import { checkNote, totalToCheck } from '../../src/renderer/verify';
import { isNothingFound } from '../../src/shared/service';
import { loadNote, machineLine, max, median, num, ratio, saveHeadline, writeSection } from '../report';
import * as run from '../support/run';
import { evaluateSandbox, evaluateWritten, Tally } from './evaluate';
import { Random } from './random';
import { backbones, makeVisit, sandboxNote, smallTalk, writtenNote, writtenText, type Visit } from './visits';

const SECTION = 'note-check';
const SEED = run.numberArg('seed', 38);
const VISITS = run.QUICK ? 30 : run.numberArg('visits', 200);
const RUNS = run.QUICK ? 5 : run.numberArg('runs', 15);
const UNCITED = 0.15;
const GOALS = { recall: 0.95, falsePer100: 1, ms: 50 };

const pct = (part: number, whole: number) => (whole === 0 ? '—' : `${num((100 * part) / whole, 1)} %`);
const per100 = (t: Tally) => (t.values === 0 ? Number.NaN : (100 * t.falseFlags) / t.values);

/** The note of a 60-minute visit: ≈ 500 lines, its sections citing their lines, one citing none. */
function longVisit(rng: Random, backbone: { text: string; speaker: string }[], talk: string[]) {
  const visit = makeVisit(rng, backbone, talk, 90, 3, 500);
  const sections = writtenNote(visit, rng, 0).map((s) => ({
    content: writtenText(visit, s).content,
    source_transcripts: s.sources,
  }));
  // An assessment that cites nothing is checked against the whole transcript.
  sections.push({ content: sections.map((s) => s.content).join(' '), source_transcripts: undefined });
  return { visit, sections };
}

function timeLong(visit: Visit, sections: { content: string; source_transcripts: string[] | undefined }[]) {
  const summary = sections.map((s) => ({
    content: s.content,
    ...(s.source_transcripts ? { source_transcripts: s.source_transcripts } : {}),
  }));
  let flags = 0;
  for (let warm = 0; warm < 3; warm += 1) flags = totalToCheck(checkNote(summary, visit.transcript));
  const times: number[] = [];
  for (let r = 0; r < RUNS; r += 1) {
    const started = performance.now();
    checkNote(summary, visit.transcript);
    times.push(performance.now() - started);
  }
  return { times, flags };
}

run.runBenchmark(SECTION, 10 * 60_000, async () => {
  const started = Date.now();
  const rng = new Random(SEED);
  const talk = smallTalk();
  const bones = backbones();

  // The sandbox's own notes of the fixtures alone: the issue's "0 flags on every clean note".
  const fixtureFlags = bones.map(({ name, turns }) => {
    const visit = makeVisit(new Random(SEED), turns, talk, 0, 0);
    const note = sandboxNote(visit.transcript);
    const flags = totalToCheck(
      checkNote(
        note.map((s) => ({ content: s.content, source_transcripts: s.sources })),
        visit.transcript,
      ),
    );
    return {
      name,
      lines: visit.transcript.length,
      sections: note.filter((s) => !isNothingFound(s)).length,
      flags,
    };
  });

  const written = new Tally();
  const sandbox = new Tally();
  let lines = 0;
  for (let v = 0; v < VISITS; v += 1) {
    const visit = makeVisit(rng, bones[v % bones.length]!.turns, talk, rng.int(8, 14));
    lines += visit.transcript.length;
    evaluateWritten(visit, writtenNote(visit, rng, UNCITED), rng, written);
    evaluateSandbox(visit, rng, sandbox);
  }

  const long = longVisit(rng, bones[0]!.turns, talk);
  const timing = timeLong(long.visit, long.sections);
  const ms = median(timing.times);

  const injected = written.allInjected + sandbox.allInjected;
  const caught = written.allCaught + sandbox.allCaught;
  const recall = injected === 0 ? Number.NaN : caught / injected;
  const values = written.values + sandbox.values;
  const falseFlags = written.falseFlags + sandbox.falseFlags;
  const falsePer100 = values === 0 ? Number.NaN : (100 * falseFlags) / values;
  const met = {
    recall: recall >= GOALS.recall,
    falses: falsePer100 <= GOALS.falsePer100,
    ms: ms <= GOALS.ms,
  };

  if (process.argv.includes('--examples')) {
    for (const [name, t] of [
      ['written', written],
      ['sandbox', sandbox],
    ] as const) {
      console.log(`\n--- ${name}: false flags ---\n${t.falseExamples.join('\n')}`);
      console.log(`\n--- ${name}: missed ---\n${t.missedExamples.join('\n')}`);
    }
  }

  const categories = [...new Set([...written.injected.keys(), ...sandbox.injected.keys()])].sort();
  const row = (name: string, t: Tally) =>
    `| ${name} | ${num(t.sections)} | ${num(t.values)} | ${num(t.falseFlags)} | ${num(per100(t), 2)} | ${num(t.allInjected)} | ${num(t.allCaught)} | ${pct(t.allCaught, t.allInjected)} |`;
  const byCategory = categories.map((c) => {
    const cell = (t: Tally) =>
      `${num(t.caught.get(c) ?? 0)} / ${num(t.injected.get(c) ?? 0)} (${pct(t.caught.get(c) ?? 0, t.injected.get(c) ?? 0)})`;
    return `| ${c} | ${cell(written)} | ${cell(sandbox)} |`;
  });

  const markdown = `## Note check: each value in the note against what was said

${machineLine()}. Wall time of the whole script: ${Math.round((Date.now() - started) / 1000)} s${run.QUICK ? ' (`--quick`: not for the report)' : ''}; ${loadNote()}. Seed ${SEED}.

**Recall ${pct(caught, injected)} (${num(caught)} of ${num(injected)} injected errors flagged; goal ≥ 95 %: ${met.recall ? 'met' : '**not met**'}).
False flags: ${num(falsePer100, 2)} per 100 clean values (${num(falseFlags)} on ${num(values)} values; goal ≤ 1: ${met.falses ? 'met' : '**not met**'}).
A 60-minute visit's note checked in ${num(ms, 2)} ms (median of ${RUNS}; goal ≤ 50 ms: ${met.ms ? 'met' : '**not met**'}).**

| note | sections | clean values | false flags | per 100 values | errors injected | flagged | recall |
| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |
${row('typed as a clinician charts', written)}
${row("the sandbox's own note", sandbox)}

| error injected | typed note: flagged / injected | sandbox's note: flagged / injected |
| --- | --- | --- |
${byCategory.join('\n')}

The sandbox's own notes of the fixtures alone (no generated facts): ${fixtureFlags.map((f) => `${f.name} ${f.flags} flags (${f.lines} lines, ${f.sections} sections)`).join('; ')}.

**Timing**: \`checkNote\` over a generated visit of ${long.visit.transcript.length} transcript lines (${long.visit.facts.length} facts) and a note of
${long.sections.length} sections (${num(long.sections.reduce((n, s) => n + s.content.length, 0))} characters; one section cites no line, so it is checked against all
${long.visit.transcript.length}): median ${num(ms, 2)} ms, max ${num(max(timing.times), 2)} ms over ${RUNS} runs after 3 warm-up runs (${timing.flags} flags on it).
The reference is the goal (${GOALS.ms} ms), ratio ${ratio(ms, GOALS.ms) ?? '—'}.

**Method.** ${num(VISITS)} visits (${num(lines)} transcript lines), generated from seed ${SEED}: each begins with the turns of one of
\`e2e/fixtures/conversation.turns.json\`, \`e2e/fixtures/telehealth.turns.json\` and the sandbox's synthetic visit
(\`sandbox/processing/test-speech.ts\`) in turn, then 8–14 facts (a medication taken or started, with its dose, frequency and
for a course its duration; two to four vital signs; a complaint with its side and duration; a sign on exam on one side;
findings denied, said or asked and answered "No"; a finding present), each said in its own lines with 0–2 lines of small
talk from the sandbox's clinical corpus before it. Values are said as people say them, chosen at random (plain words, with
"and", "a hundred", in pairs as "one fifty", digits as some recognizers write them; "thirty eight point two", "and a half";
units and frequencies in several spoken forms) and typed as clinicians chart them ("500 mg", "1,000 mcg", "b.i.d.", "3x/day",
"q 6 h", "150/90 mmHg", "T 101.2°F", "SpO2 96% on room air", "x 10 days", "bilateral knee", "Denies fever, chills, or
night sweats"). The generator (\`bench/note-check/\`) shares no code with the matcher. Each visit has two notes: one typed
(each section cites the lines its facts were said in; ${100 * UNCITED} % of sections cite none and are checked against the
whole transcript), and the one the sandbox's note writer makes from the transcript. A clean value is a dose, duration,
frequency, vital sign, side or denied finding in a clean note; every flag on a clean note counts as false. Then, for each
value, a copy of its section with one error of a kind that value can carry (a number changed, a unit changed, a frequency
changed, a side swapped, a negation dropped or added; in the sandbox's note the error is said in the copied sentence), caught
when a flag covers the changed value (for a negation, the finding's sentences).

**What this does not measure.** The generator and the matcher were written together (issue 38): the first run (seed 38, 30
visits) gave 91.0 % recall, 0.68 false flags per 100 values and 89 ms (load average near 6); the matcher was then changed where that run showed
it wrong in general (a value is looked up where what it is about was said, a denied list reaches past six words, "both of my
knees", "for a week" in a note, a stem for "knees"), and the corpus only where an injected error was not an error (a
temperature's scale changed but not said). Its lines are clean: no recognizer errors and no paraphrase beyond its templates,
so on real notes expect more false flags than here. Forms the matcher does not read are listed in
\`docs/note-check.md\`.

Run: \`node --import tsx bench/note-check/main.ts\` (\`--seed N\`, \`--visits N\`, \`--runs N\`; \`--quick\`: 30 visits, 5 runs;
\`--examples\` prints false flags and missed errors). Needs no build.`;

  await writeSection(SECTION, markdown);
  saveHeadline(SECTION, [
    {
      metric: 'note check: injected errors flagged (higher is better)',
      ours: pct(caught, injected),
      goal: '≥ 95 %',
      met: met.recall,
    },
    {
      metric: 'note check: false flags per 100 clean values (lower is better)',
      ours: num(falsePer100, 2),
      goal: '≤ 1',
      met: met.falses,
    },
    {
      metric: "note check: a 60-minute visit's note (≈ 500 lines), median (lower is better)",
      ours: `${num(ms, 2)} ms`,
      reference: `goal ${GOALS.ms} ms`,
      ...(ratio(ms, GOALS.ms) !== undefined ? { ratio: ratio(ms, GOALS.ms)! } : {}),
      goal: '≤ 50 ms',
      met: met.ms,
    },
  ]);
});
