// Open a prepared pybridge site in headless Chromium, wait for the engine to print a sentinel
// line, play scripted mouse actions, take a screenshot and write a JSON report.
//
//   node web/drive.mjs CONFIG.json
//
// CONFIG: {url, chromium, user_data_dir, report, sentinel, timeout_ms?, width?, height?,
//          screenshot?, actions?: [{move|click|down|up|drag|wait_ms|wait_for|key|screenshot}],
//          while_loading?: [the same, and {loading_at: percent}], interactive?,
//          fail_on_script_error?}
// REPORT: {ok, failure, state, printed, errors, console, page_errors, timing}
// Exit status 0 when every wait succeeded, 1 otherwise (the report is written either way).
//
// while_loading runs before the sentinel is awaited, as the page loads: {loading_at: N} waits
// until the page's loading bar shows at least N percent while it still loads. Meanwhile the
// page's pybridge package is held back, so the page cannot finish loading between a step that
// waits for the bar and a screenshot of it; it is let through once those steps are done.
// A wait_for step may carry `from`: only lines printed at or after that index count, and
// `timeout_ms` (default: the config's). A drag is
// [x0, y0, x1, y1] or [x0, y0, x1, y1, steps] (the pointer moves in `steps` steps, default 10).
// With `interactive: true`, once the sentinel is printed the driver writes {"ready": true,
// "printed": [...]} as one line to stdout, then reads commands from stdin, one JSON line each:
// {"id", "actions": [...]}; it runs them and answers {"id", "ok", "failure", "printed",
// "errors"} with the lines printed since its previous answer. It finishes when stdin closes.
import { readFileSync, writeFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { chromium } from "playwright-core";

const config = JSON.parse(readFileSync(process.argv[2], "utf-8"));
const timeout = config.timeout_ms ?? 60000;
const strictScripts = config.fail_on_script_error ?? false; // stop waiting at a SCRIPT ERROR
const report = { ok: false, failure: null, state: null, printed: [], errors: [], console: [],
  page_errors: [], timing: {} };

const flags = ["--use-angle=swiftshader", "--enable-unsafe-swiftshader", "--no-sandbox",
  "--disable-background-networking", "--disable-component-update", "--disable-sync",
  "--no-first-run", "--disable-quic", "--ignore-gpu-blocklist"];

async function printed(page, text, from = 0, limit = timeout) {
  // Wait until the engine printed a line containing `text` (or the page gave up).
  await page.waitForFunction(([wanted, start, strict]) => {
    const state = window.pybridge_state || "";
    return state.startsWith("failed") || state.startsWith("exited")
      || (strict && (window.godot_errors || []).some((line) => line.includes("SCRIPT ERROR")))
      || (window.godot_output || []).slice(start).some((line) => line.includes(wanted));
  }, [text, from, strictScripts], { timeout: limit, polling: 25 });
  const state = await page.evaluate(() => window.pybridge_state);
  if (state.startsWith("failed") || state.startsWith("exited")) {
    throw new Error(`page ${state} while waiting for ${JSON.stringify(text)}`);
  }
  const found = await page.evaluate(([wanted, start]) => (window.godot_output || [])
    .slice(start).some((line) => line.includes(wanted)), [text, from]);
  if (!found) throw new Error(`a script error while waiting for ${JSON.stringify(text)}`);
}

async function act(page, step) {
  const mouse = page.mouse;
  if (step.move) await mouse.move(...step.move);
  else if (step.click) await mouse.click(...step.click);
  else if (step.down) { await mouse.move(...step.down); await mouse.down(); }
  else if (step.up) { await mouse.move(...step.up); await mouse.up(); }
  else if (step.drag) {
    const [x0, y0, x1, y1, steps = 10] = step.drag;
    await mouse.move(x0, y0);
    await mouse.down();
    await mouse.move(x1, y1, { steps });
    await mouse.up();
  } else if (step.wait_ms) await page.waitForTimeout(step.wait_ms);
  else if (step.wait_for) await printed(page, step.wait_for, step.from ?? 0, step.timeout_ms);
  else if (step.key) await page.keyboard.press(step.key);
  else if (step.loading_at !== undefined) {
    // The fill eases to its width, so wait for the drawn width, not only the number.
    await page.waitForFunction((percent) => {
      const fill = document.getElementById("pybridge-fill");
      const bar = fill?.parentElement?.getBoundingClientRect().width ?? 0;
      return window.pybridge_state === "loading" && (window.pybridge_progress ?? 0) >= percent
        && bar > 0 && fill.getBoundingClientRect().width >= bar * percent / 100;
    }, step.loading_at, { timeout, polling: 10 });
  }
  else if (step.screenshot) await page.screenshot({ path: step.screenshot });
  else throw new Error(`unknown action ${JSON.stringify(step)}`);
}

async function converse(page) {
  // Interactive mode: answer command lines from stdin until it closes.
  let seenLines = 0;
  let seenErrors = 0;
  const news = async () => {
    const all = await page.evaluate(() => ({
      printed: window.godot_output ?? [], errors: window.godot_errors ?? [] }));
    const fresh = { printed: all.printed.slice(seenLines), errors: all.errors.slice(seenErrors) };
    seenLines = all.printed.length;
    seenErrors = all.errors.length;
    return fresh;
  };
  process.stdout.write(JSON.stringify({ ready: true, ...(await news()) }) + "\n");
  for await (const text of createInterface({ input: process.stdin, crlfDelay: Infinity })) {
    if (!text.trim()) continue;
    const command = JSON.parse(text);
    const answer = { id: command.id ?? null, ok: true, failure: null };
    try {
      for (const step of command.actions ?? []) await act(page, step);
    } catch (err) {
      answer.ok = false;
      answer.failure = String(err && err.stack ? err.stack : err);
    }
    process.stdout.write(JSON.stringify({ ...answer, ...(await news()) }) + "\n");
  }
}

const context = await chromium.launchPersistentContext(config.user_data_dir, {
  executablePath: config.chromium,
  headless: true,
  args: flags,
  viewport: { width: config.width ?? 640, height: config.height ?? 360 },
});
const started = Date.now();
try {
  const page = context.pages()[0] ?? await context.newPage();
  page.on("console", (msg) => report.console.push({ type: msg.type(), text: msg.text() }));
  page.on("pageerror", (err) => report.page_errors.push(String(err)));
  let release = () => {};
  if (config.while_loading) {
    const held = new Promise((resolve) => { release = resolve; });
    await page.route("**/pybridge.zip", async (route) => { await held; await route.continue(); });
  }
  await page.goto(config.url, { timeout });
  try {
    for (const step of config.while_loading ?? []) await act(page, step);
  } finally {
    release();
  }
  await printed(page, config.sentinel);
  report.timing.sentinel_ms = Date.now() - started;
  for (const step of config.actions ?? []) await act(page, step);
  if (config.interactive) await converse(page);
  if (config.screenshot) await page.screenshot({ path: config.screenshot });
  report.ok = true;
} catch (err) {
  report.failure = String(err && err.stack ? err.stack : err);
} finally {
  const page = context.pages()[0];
  if (page) {
    const seen = await page.evaluate(() => ({
      state: window.pybridge_state ?? null,
      printed: window.godot_output ?? [],
      errors: window.godot_errors ?? [],
      timing: window.pybridge_timing ?? {},
    })).catch(() => ({}));
    Object.assign(report.timing, seen.timing ?? {});
    report.state = seen.state ?? null;
    report.printed = seen.printed ?? [];
    report.errors = seen.errors ?? [];
  }
  report.timing.total_ms = Date.now() - started;
  writeFileSync(config.report, JSON.stringify(report, null, 2));
  await context.close();
}
process.exit(report.ok ? 0 : 1);
