#!/usr/bin/python3
"""Draws monitoring/dashboard-preview.png: the panels of monitoring/grafana-dashboard.json, laid out as in Grafana,
each from its own PromQL queries run against the Prometheus that record.sh filled with real metrics of a real
Keycloak. Not Grafana: a picture of what the dashboard shows. Below the panels, a strip (not part of the dashboard)
shows when the rules of monitoring/prometheus-alerts.yml fired in that Prometheus.

    /usr/bin/python3 monitoring/preview/render.py [--prometheus http://127.0.0.1:19090] [--out PATH]

Needs Debian's python3-matplotlib (and python3-pil, which it brings).
"""
import argparse
import datetime
import io
import json
import os
import re
import urllib.parse
import urllib.request

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import FancyBboxPatch  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
MONITORING = os.path.dirname(HERE)
TARGET = os.path.join(HERE, "target")
RATE_INTERVAL = "30s"  # what Grafana's $__rate_interval is for a 5 s scrape at this zoom
STEP = 5

BG, PANEL, TEXT, GRID, MUTED = "#111217", "#181b1f", "#ccccdc", "#2c3235", "#8e8e9e"
PALETTE = ["#73bf69", "#f2cc0c", "#f2495c", "#5794f2", "#ff9830", "#b877d9", "#8ab8ff", "#96d98d"]
NAMED = {"allow": "#73bf69", "captcha_required": "#f2cc0c", "blocked": "#f2495c"}


def query(prom, path, params):
    url = prom + path + "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=30) as r:
        body = json.load(r)
    if body.get("status") != "success":
        raise SystemExit("Prometheus refused %s: %s" % (params.get("query"), body))
    return body["data"]["result"]


def promql(expr):
    return expr.replace("$__rate_interval", RATE_INTERVAL).replace("$realm", ".*")


def legend(fmt, labels):
    text = re.sub(r"\{\{\s*(\w+)\s*\}\}", lambda m: labels.get(m.group(1), ""), fmt or "").strip()
    return text or "(no label)"


def panels(dashboard):
    for p in dashboard["panels"]:
        yield p
        for inner in p.get("panels", []):
            yield inner


def style(ax):
    ax.set_facecolor(PANEL)
    for s in ax.spines.values():
        s.set_visible(False)
    ax.tick_params(colors=MUTED, labelsize=7, length=0)
    ax.grid(True, color=GRID, linewidth=0.6)


def minutes_axis(ax, start, end):
    ticks = list(range(0, int((end - start) / 60) + 1, 2))
    ax.set_xticks([start + 60 * t for t in ticks])
    ax.set_xticklabels([datetime.datetime.fromtimestamp(start + 60 * t, datetime.timezone.utc).strftime("%H:%M")
                        for t in ticks])
    ax.set_xlim(start, end)


def draw_timeseries(ax, panel, prom, start, end):
    unit = panel["fieldConfig"]["defaults"].get("unit")
    colours = iter(PALETTE)
    drawn = 0
    for target in panel["targets"]:
        for series in query(prom, "/api/v1/query_range",
                            {"query": promql(target["expr"]), "start": start, "end": end, "step": STEP}):
            name = legend(target["legendFormat"], series["metric"])
            xs = [float(t) for t, _ in series["values"]]
            ys = [float(v) for _, v in series["values"]]
            colour = NAMED.get(name) or next(colours, "#cccccc")
            ax.plot(xs, ys, color=colour, linewidth=1.3, label=name)
            ax.fill_between(xs, ys, color=colour, alpha=0.10)
            drawn += 1
    steps = panel["fieldConfig"]["defaults"].get("thresholds", {}).get("steps", [])
    for s in steps:
        if s.get("value") is not None:
            ax.axhline(s["value"], color="#ff9830" if s["color"] == "orange" else "#f2495c", linestyle="--",
                       linewidth=0.8)
    if drawn == 0:
        ax.text(0.5, 0.5, "No data", transform=ax.transAxes, ha="center", va="center", color=MUTED, fontsize=10)
    else:
        ax.legend(loc="upper left", fontsize=6.5, frameon=False, labelcolor=TEXT, ncol=3)
    ax.set_ylim(bottom=0, top=max(ax.get_ylim()[1], 1.05 if unit in ("percentunit", "none") else 0.1))
    if unit == "percentunit":
        ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    elif unit == "reqps":
        ax.set_ylabel("per second", color=MUTED, fontsize=7)
    minutes_axis(ax, start, end)


def draw_stat(ax, panel, prom, end):
    target = panel["targets"][0]
    result = query(prom, "/api/v1/query", {"query": promql(target["expr"]), "time": end})
    defaults = panel["fieldConfig"]["defaults"]
    ax.set_xticks([])
    ax.set_yticks([])
    if not result:
        ax.text(0.5, 0.45, "No data", transform=ax.transAxes, ha="center", va="center", color=MUTED, fontsize=14)
        return
    n = len(result)
    for i, r in enumerate(result):
        value = float(r["value"][1])
        colour = "green"
        for s in defaults["thresholds"]["steps"]:
            if s["value"] is None or value >= s["value"]:
                colour = s["color"]
        text = "%d" % round(value)
        for m in defaults.get("mappings", []):
            text = m["options"].get(text, {}).get("text", text)
        x0 = i / n
        ax.add_patch(FancyBboxPatch((x0 + 0.02, 0.06), 1 / n - 0.04, 0.62, transform=ax.transAxes,
                                    boxstyle="round,pad=0,rounding_size=0.02",
                                    color={"green": "#37872d", "orange": "#fa6400", "red": "#c4162a"}[colour]))
        ax.text(x0 + 0.5 / n, 0.42, text, transform=ax.transAxes, ha="center", va="center", color="white",
                fontsize=16, fontweight="bold")
        ax.text(x0 + 0.5 / n, 0.14, legend(target["legendFormat"], r["metric"]), transform=ax.transAxes,
                ha="center", va="center", color="white", fontsize=7)


def draw_alerts(ax, prom, start, end):
    names = ["AbuseGateAttackStarted", "AbuseGateRealmUnderAttack", "AbuseGateStoreNearBound",
             "AbuseGateStoreDegraded", "AbuseGateStoreOutage"]
    result = query(prom, "/api/v1/query_range", {"query": 'ALERTS{alertstate="firing"}', "start": start,
                                                 "end": end, "step": STEP})
    for series in result:
        name = series["metric"]["alertname"]
        if name not in names:
            continue
        y = names.index(name)
        for t, _ in series["values"]:
            ax.broken_barh([(float(t) - STEP / 2, STEP)], (y - 0.35, 0.7), color="#f2495c")
    ax.set_yticks(range(len(names)))
    ax.set_yticklabels(names, fontsize=7, color=TEXT)
    ax.set_ylim(-0.6, len(names) - 0.4)
    ax.invert_yaxis()
    minutes_axis(ax, start, end)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--prometheus", default="http://127.0.0.1:19090")
    ap.add_argument("--dashboard", default=os.path.join(MONITORING, "grafana-dashboard.json"))
    ap.add_argument("--out", default=os.path.join(MONITORING, "dashboard-preview.png"))
    args = ap.parse_args()
    dashboard = json.load(open(args.dashboard))
    start = int(open(os.path.join(TARGET, "start")).read()) - 20
    end = int(open(os.path.join(TARGET, "end")).read())

    items = list(panels(dashboard))
    rows = max(p["gridPos"]["y"] + p["gridPos"]["h"] for p in items)
    alert_h = 5
    unit = 0.30  # inches per grid unit of height
    header = 1.6
    width = 17.0
    total = header + (rows + alert_h + 1) * unit
    fig = plt.figure(figsize=(width, total), facecolor=BG)
    fig.text(0.01, 1 - 0.35 / total, dashboard["title"], color=TEXT, fontsize=15, fontweight="bold", va="top")
    span = "%s to %s UTC" % tuple(datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M")
                                  for t in (start, end))
    fig.text(0.01, 1 - 0.85 / total,
             "Preview, not Grafana: each panel is the dashboard's own query, run on Prometheus scraping a real Keycloak "
             "26.7.3 with the provider during a short attack (monitoring/preview/record.sh), " + span
             + ".  Realm: All.  $__rate_interval = " + RATE_INTERVAL + ".",
             color=MUTED, fontsize=8, va="top")

    def place(x, y, w, h, margin=0.032):
        # a Grafana grid cell, with room inside it on the left for the y ticks and on top for the title
        left = x / 24 + margin
        top = 1 - (header + y * unit + 0.3) / total
        height = (h * unit - 0.65) / total
        return fig.add_axes([left, top - height, w / 24 - margin - 0.008, height])

    for p in items:
        g = p["gridPos"]
        if p["type"] == "row":
            fig.text(0.006, 1 - (header + g["y"] * unit + 0.05) / total, p["title"], color=TEXT, fontsize=11,
                     fontweight="bold", va="top")
            continue
        ax = place(g["x"], g["y"], g["w"], g["h"])
        style(ax)
        fig.text(g["x"] / 24 + 0.006, 1 - (header + g["y"] * unit + 0.05) / total, p["title"], color=TEXT,
                 fontsize=9, va="top")
        if p["type"] == "stat":
            ax.grid(False)
            draw_stat(ax, p, args.prometheus, end)
        else:
            draw_timeseries(ax, p, args.prometheus, start, end)
    fig.text(0.006, 1 - (header + (rows + 0.3) * unit) / total,
             "Not in the dashboard: when monitoring/prometheus-alerts.yml fired in this Prometheus", color=TEXT,
             fontsize=11, fontweight="bold", va="top")
    ax = place(0, rows + 1, 24, alert_h, margin=0.13)
    style(ax)
    draw_alerts(ax, args.prometheus, start, end)

    buf = io.BytesIO()
    fig.savefig(buf, dpi=72, facecolor=BG, format="png")
    from PIL import Image

    image = Image.open(io.BytesIO(buf.getvalue())).convert("RGB").quantize(colors=64)
    image.save(args.out, optimize=True)
    print("%s: %d bytes" % (args.out, os.path.getsize(args.out)))


if __name__ == "__main__":
    main()
