# The Python writer of issue 27 (docs/PERFORMANCE.md): what `pareto report`
# does for two objectives, written plainly: read the CSV, take the strict
# 2D frontier (X minimised, Y maximised: sort by X then -Y, sweep the best
# Y), name each dominated point's dominator, and write every point through
# one json.dumps into a <script type="application/json"> of an HTML page.
#
#   python3 pywriter.py FILE.csv X Y OUT.html
import csv, json, sys

path, xs, ys, out = sys.argv[1:5]
rows = list(csv.DictReader(open(path, newline="")))
pts = [(float(r[xs]), float(r[ys]), r) for r in rows]
order = sorted(range(len(pts)), key=lambda i: (pts[i][0], -pts[i][1]))
best, status, by = None, {}, {}
for i in order:
    x, y, r = pts[i]
    if best is None or y > pts[best][1]:
        best, status[i] = i, "frontier"
    else:
        status[i], by[i] = "dominated", pts[best][2]["id"]
doc = [{"id": r["id"], "case": r.get("case", ""), xs: x, ys: y, "status": status[i], "dominated_by": by.get(i)}
       for i, (x, y, r) in enumerate(pts)]
with open(out, "w") as f:
    f.write("<!doctype html><html><head><meta charset=utf-8><title>frontier</title></head><body>\n")
    f.write('<script type="application/json" id="data">' + json.dumps(doc).replace("</", "<\\/") + "</script>\n")
    f.write("</body></html>\n")
