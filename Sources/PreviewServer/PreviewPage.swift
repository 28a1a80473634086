/// The try-on page served at `/`: the live MJPEG view, a carousel of the catalogue's frames
/// (thumbnails rendered by the engine; click one to wear it, click a swatch for a colourway) and
/// a panel with the measurements and the engine's state, refreshed from `/status`.
///
/// Self-contained (no external scripts, fonts or styles) so a kiosk works offline. The stream's
/// `<img>` gets its `src` after the page has loaded, so the never-ending stream never holds the
/// load event. `?click=SPEC` clicks that frame's button once the carousel is built: a real click
/// event through the same handler a person triggers, used by the headless-browser tests.
public enum PreviewPage {
    public static let html = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Lorgnette try-on</title>
<style>
  :root { --bg: #15171a; --panel: #202328; --text: #e8e8e8; --dim: #9aa0a6; --accent: #e0b050; }
  * { box-sizing: border-box; }
  body { margin: 0; background: var(--bg); color: var(--text); font: 15px/1.4 system-ui, sans-serif; }
  header { padding: 10px 16px; display: flex; align-items: baseline; gap: 16px; }
  header h1 { margin: 0; font-size: 20px; font-weight: 600; }
  header #state { color: var(--dim); }
  main { display: flex; gap: 16px; padding: 0 16px; align-items: flex-start; }
  #view { flex: 1 1 auto; min-width: 0; background: #000; border-radius: 6px; overflow: hidden; }
  #live { display: block; width: 100%; height: 62vh; min-height: 240px; object-fit: contain; background: #000; }
  aside { flex: 0 0 290px; background: var(--panel); border-radius: 6px; padding: 12px 14px; }
  aside h2 { margin: 0 0 8px; font-size: 15px; color: var(--dim); font-weight: 500; }
  dl { margin: 0 0 14px; display: grid; grid-template-columns: auto 1fr; gap: 4px 10px; }
  dt { color: var(--dim); }
  dd { margin: 0; text-align: right; font-variant-numeric: tabular-nums; }
  #carousel { display: flex; gap: 10px; overflow-x: auto; padding: 14px 16px; }
  .frame { flex: 0 0 auto; width: 168px; background: var(--panel); border: 2px solid transparent;
           border-radius: 6px; padding: 6px; color: var(--text); text-align: center; }
  .frame.selected { border-color: var(--accent); }
  .frame button.thumb { display: block; width: 100%; padding: 0; border: 0; background: none; cursor: pointer; color: inherit; font: inherit; }
  .frame img { display: block; width: 152px; height: 76px; object-fit: contain; background: #fff; border-radius: 4px; }
  .frame .name { display: block; margin-top: 4px; font-size: 13px; }
  .swatches { display: flex; justify-content: center; gap: 6px; margin-top: 4px; }
  .swatch { width: 18px; height: 18px; border-radius: 50%; border: 2px solid #555; cursor: pointer; padding: 0; }
  .swatch.selected { border-color: var(--accent); }
  #message { padding: 0 16px; color: #ff8a80; min-height: 1.4em; }
</style>
</head>
<body>
<header><h1>Lorgnette try-on</h1><span id="state">connecting…</span></header>
<main>
  <div id="view"><img id="live" alt="live try-on"></div>
  <aside>
    <h2>Measurements</h2>
    <dl>
      <dt>PD</dt><dd id="pd">–</dd>
      <dt>Temple width</dt><dd id="temple">–</dd>
      <dt>Recommended size</dt><dd id="size">–</dd>
      <dt>Based on</dt><dd id="based">–</dd>
    </dl>
    <h2>Engine</h2>
    <dl>
      <dt>Frame</dt><dd id="glasses">–</dd>
      <dt>Tracking</dt><dd id="tracking">–</dd>
      <dt>FPS</dt><dd id="fps">–</dd>
      <dt>Latency</dt><dd id="latency">–</dd>
      <dt>Light</dt><dd id="light">–</dd>
      <dt>Viewers</dt><dd id="clients">–</dd>
    </dl>
  </aside>
</main>
<div id="message"></div>
<div id="carousel" aria-label="frames"></div>
<script>
"use strict";
const $ = (id) => document.getElementById(id);
const fmt = (v, digits, unit) => (typeof v === "number" && isFinite(v)) ? v.toFixed(digits) + unit : "–";
let selected = null;

function markSelected(spec) {
  selected = spec;
  const id = spec ? spec.split(":")[0] : null;
  for (const el of document.querySelectorAll(".frame")) el.classList.toggle("selected", el.dataset.id === id);
  for (const el of document.querySelectorAll(".swatch")) el.classList.toggle("selected", el.dataset.spec === spec);
}

async function choose(spec) {
  $("message").textContent = "";
  try {
    const r = await fetch("/frame", { method: "POST", headers: { "Content-Type": "application/json" },
                                      body: JSON.stringify({ frame: spec }) });
    const body = await r.json();
    if (!r.ok) { $("message").textContent = body.error || ("error " + r.status); return; }
    markSelected(body.frame);
    document.body.dataset.chosen = body.frame;
  } catch (e) { $("message").textContent = "cannot reach the engine: " + e; }
}

function frameCard(f) {
  const card = document.createElement("div");
  card.className = "frame";
  card.dataset.id = f.id;
  const thumb = document.createElement("button");
  thumb.className = "thumb";
  thumb.dataset.spec = f.id;
  thumb.title = f.name;
  const img = document.createElement("img");
  img.src = "/thumbnail?frame=" + encodeURIComponent(f.id);
  img.alt = f.name;
  const name = document.createElement("span");
  name.className = "name";
  name.textContent = f.name;
  thumb.append(img, name);
  thumb.addEventListener("click", () => choose(f.id));
  card.append(thumb);
  const swatches = document.createElement("div");
  swatches.className = "swatches";
  for (const v of f.variants) {
    const s = document.createElement("button");
    s.className = "swatch";
    s.dataset.spec = f.id + ":" + v.id;
    s.title = v.name;
    s.style.background = v.color || "#888";
    s.addEventListener("click", () => { img.src = "/thumbnail?frame=" + encodeURIComponent(s.dataset.spec); choose(s.dataset.spec); });
    swatches.append(s);
  }
  card.append(swatches);
  return card;
}

async function loadCarousel() {
  const r = await fetch("/frames");
  const list = await r.json();
  const carousel = $("carousel");
  carousel.replaceChildren(...list.frames.map(frameCard));
  markSelected(list.selected);
  document.body.dataset.frames = String(list.frames.length);
  const click = new URLSearchParams(location.search).get("click");
  if (click) {
    const target = document.querySelector('button[data-spec="' + CSS.escape(click) + '"]');
    if (target) target.click(); else $("message").textContent = "no frame " + click + " to click";
  }
}

async function refreshStatus() {
  try {
    const s = await (await fetch("/status", { cache: "no-store" })).json();
    $("state").textContent = s.tracking ? (s.tracking.state + " · frame " + s.frameIndex) : "waiting for the camera";
    $("glasses").textContent = s.glasses || "–";
    $("tracking").textContent = s.tracking ? (s.tracking.faces.length + " face" + (s.tracking.faces.length === 1 ? "" : "s")) : "–";
    $("fps").textContent = fmt(s.fps, 1, "");
    $("latency").textContent = fmt(s.latencyMs, 1, " ms");
    const m = s.metrics || {};
    $("pd").textContent = fmt(m.pdMM, 1, " mm") + (typeof m.pdUncertaintyMM === "number" ? " ± " + m.pdUncertaintyMM.toFixed(1) : "");
    $("temple").textContent = fmt(m.templeWidthMM, 0, " mm");
    $("size").textContent = m.recommendedSize ? (m.recommendedSize + (m.sizeLabel ? " (" + m.sizeLabel + ")" : "")) : "–";
    $("based").textContent = typeof m.framesUsed === "number" ? m.framesUsed + " frames" : "measuring…";
    $("light").textContent = s.light ? (fmt(s.light.ambientIntensity, 0, "") + (typeof s.light.colorTemperatureK === "number" ? " · " + s.light.colorTemperatureK.toFixed(0) + " K" : "")) : "–";
    $("clients").textContent = s.stream ? (s.stream.clients.length + " / " + s.stream.maxClients) : "–";
    if (s.selectedGlasses && s.selectedGlasses !== selected) markSelected(s.selectedGlasses);
  } catch (e) { $("state").textContent = "engine unreachable"; }
}

window.addEventListener("load", () => {
  $("live").src = "/stream.mjpg";
  loadCarousel().catch((e) => { $("message").textContent = "cannot load the frames: " + e; });
  refreshStatus();
  setInterval(refreshStatus, 500);
});
</script>
</body>
</html>
"""#
}
