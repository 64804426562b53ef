#!/usr/bin/env python3
"""bisect.{md,svg,html,json} of the test bisections, read back as a user's
tools read them: the SVG (alone and inside the HTML) as XML with an svg root
and no element but SVG's, every file ASCII but the JSON, the JSON's keys.

    bisect_render_test.py BISECT_RENDER_EXE
"""
import json
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

SVG = "{http://www.w3.org/2000/svg}"
SVG_TAGS = {"svg", "title", "rect", "text", "line", "circle"}
TOP_KEYS = {"schema", "experiment", "headline", "outcome", "verdict", "culprit", "seed",
            "builds", "steps", "changes", "state"}
HOSTILE = "<script>alert(\"x\")</script> & 'it' \ufffd\ufffd end"
failures = []


def check(name, ok, detail=""):
    print(("ok   " if ok else "FAIL ") + name + ("" if ok else ": " + detail[:400]))
    if not ok:
        failures.append(name)


def svg_root(name, text):
    """The parsed SVG, or None after a failed check."""
    try:
        root = ET.fromstring(text)
    except ET.ParseError as e:
        check(name + " parses as XML", False, str(e))
        return None
    tags = {el.tag.removeprefix(SVG) for el in root.iter()}
    check(name + " parses as XML with an svg root", root.tag == SVG + "svg", root.tag)
    check(name + " holds only the chart's SVG elements", tags <= SVG_TAGS, str(tags - SVG_TAGS))
    return root


def all_text(root):
    return " ".join(t for el in root.iter() for t in (el.text, el.get("aria-label")) if t)


def check_scenario(folder, scenario):
    base = f"{folder}/{scenario}/bisect"
    raw = {ext: open(f"{base}.{ext}", "rb").read() for ext in ("md", "svg", "html", "json")}
    for ext in ("md", "svg", "html"):
        check(f"{scenario}: bisect.{ext} is ASCII", all(b < 0x80 for b in raw[ext]))
    svg = svg_root(f"{scenario}: bisect.svg", raw["svg"])
    figure = re.search(rb"<figure>\n(<svg .*?</svg>\n)</figure>", raw["html"], re.S)
    check(f"{scenario}: bisect.html holds the chart in a figure", figure is not None)
    if figure:
        check(f"{scenario}: the HTML's chart is bisect.svg", figure.group(1) == raw["svg"])
        svg_root(f"{scenario}: the HTML's chart", figure.group(1))
    report = json.loads(raw["json"].decode("utf-8"))
    check(f"{scenario}: bisect.json's keys", set(report) == TOP_KEYS, str(sorted(report)))
    return svg, report


def main():
    exe = sys.argv[1]
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run([exe, folder], check=True)
        results = {s: check_scenario(folder, s)
                   for s in ("culprit", "no-regression", "undecided", "hostile")}
    svg, report = results["hostile"]
    if svg is not None:
        check("hostile: the SVG's text is the subject as written, made ASCII",
              "<script>alert(\"x\")</script> & 'it' ?? end" in all_text(svg), all_text(svg))
    check("hostile: bisect.json keeps the subject, bad bytes as U+FFFD",
          report["builds"][5]["subject"] == HOSTILE, report["builds"][5]["subject"])
    svg, report = results["culprit"]
    check("culprit: bisect.json names the pair", report["culprit"] == {"last_good": 4, "first_bad": 5},
          str(report["culprit"]))
    if svg is not None:
        check("culprit: the chart marks the culprit", "culprit" in all_text(svg))
    check("no-regression: bisect.json names no culprit", results["no-regression"][1]["culprit"] is None)
    if failures:
        print(f"{len(failures)} failed")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
