package dev.abusegate.benchmarks.attack;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Graphics2D;
import java.awt.RenderingHints;
import java.awt.Stroke;
import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.imageio.ImageIO;

/**
 * Real users' p99 against the offered attack rate, log-log, one panel per endpoint, one line per realm and attack
 * shape: the median over the runs with a bar from the lowest to the highest run; the thin dashed lines are twice each
 * realm's idle p99. The legend and the notes sit below the panels, inside the image. Drawn with AWT (headless) into a PNG.
 */
final class Plot {

    static final int W = 1400;
        static final Color STOCK = new Color(200, 60, 40);
    static final Color GATED = new Color(30, 100, 200);
    static final Color SHIELDED = new Color(40, 150, 70);
    static final Color NGINX = new Color(150, 90, 170);

    static Color color(String realm) {
        return switch (realm) {
            case "stock" -> STOCK;
            case "shielded" -> SHIELDED;
            case "nginx" -> NGINX;
            default -> GATED;
        };
    }

    private Plot() {
    }

    /** Median, min and max p99 over the runs of one realm, endpoint, shape and rate (only phases that ran). */
    static double[] p99(List<Phase> ps) {
        return Report.stats(ps.stream().filter(Phase::ran).mapToDouble(p -> p.p99).toArray());
    }

    /** Whether every real user logged in, in every run of the phase. */
    static boolean allOk(List<Phase> ps) {
        return ps.stream().filter(Phase::ran).allMatch(p -> p.realOk == p.realN);
    }

    static void write(List<Phase> ps, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        List<String> endpoints = new ArrayList<>(Report.values(ps, p -> p.endpoint));
        List<String> realms = Report.realms(ps);
        List<String> shapes = new ArrayList<>(Report.values(ps, p -> p.shape));
        shapes.remove("idle");
        int runs = Report.runs(ps).size();
        // The legend's rows below the panels, measured first so that the image is tall enough for all of them.
        BufferedImage probe = new BufferedImage(1, 1, BufferedImage.TYPE_INT_RGB);
        Graphics2D pg = probe.createGraphics();
        pg.setFont(LEGEND);
        List<String> notes = wrap(pg, notes(runs), W - 100);
        int legendRows = legendRows(pg, realms, shapes);
        pg.dispose();
        int panelH = 440;
        int legendTop = 60 + panelH + 60;
        int h = legendTop + legendRows * 22 + 12 + notes.size() * 18 + 16;
        BufferedImage img = new BufferedImage(W, h, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, h);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
        g.drawString("Real users' p99 login latency under attack: stock Keycloak 26.7.3 vs the abuse gate (" + runs
                + (runs == 1 ? " run" : " runs, median") + ", 2-core machine)", 30, 28);
        double xMin = Double.MAX_VALUE;
        double xMax = 0;
        double yMin = Double.MAX_VALUE;
        double yMax = 0;
        for (Phase p : ps) {
            if (!p.ran()) {
                continue;
            }
            if (!p.shape.equals("idle")) {
                xMin = Math.min(xMin, p.rate);
                xMax = Math.max(xMax, p.rate);
            }
            yMin = Math.min(yMin, p.p99);
            yMax = Math.max(yMax, Math.max(p.p99, p.shape.equals("idle") ? 2 * p.p99 : 0));
        }
        if (xMax == 0) {
            xMin = 1;
            xMax = 10;
        }
        double[] xr = {decadeDown(xMin / 1.5), decadeUp(xMax * 1.5)};
        double[] yr = {decadeDown(yMin / 1.3), decadeUp(yMax * 1.3)};
        int panelW = (W - 80) / Math.max(1, endpoints.size());
        for (int i = 0; i < endpoints.size(); i++) {
            panel(g, ps, endpoints.get(i), realms, shapes, 80 + i * panelW, 60, panelW - 90, panelH, xr, yr);
        }
        legend(g, realms, shapes, notes, 80, legendTop);
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(img, "png", png.toFile());
    }

    static final Font LEGEND = new Font(Font.SANS_SERIF, Font.PLAIN, 13);

    static String notes(int runs) {
        return "Filled marker: every real user logged in" + (runs > 1 ? " in every run" : "") + "; hollow: some did not. "
                + (runs > 1 ? "Markers: the median over " + runs + " runs; vertical bars: the lowest and highest run. " : "")
                + "Thin dashed lines: twice each realm's idle p99. Points of one rate are drawn side by side, one realm after "
                + "another. Lines stop where a realm was already saturated (higher rates not run). Real users log in on a fixed "
                + "schedule, each another user from another address; asked for a captcha, they solve it (the solving is in their "
                + "latency).";
    }

    /** Splits a text into lines no wider than the given pixels. */
    static List<String> wrap(Graphics2D g, String text, int width) {
        List<String> out = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String w : text.split(" ")) {
            String next = line.length() == 0 ? w : line + " " + w;
            if (g.getFontMetrics().stringWidth(next) > width && line.length() > 0) {
                out.add(line.toString());
                line = new StringBuilder(w);
            } else {
                line = new StringBuilder(next);
            }
        }
        if (line.length() > 0) {
            out.add(line.toString());
        }
        return out;
    }

    static String entry(String realm, String shape) {
        return realm + ", " + Report.shapeName(shape);
    }

    static int entryWidth(Graphics2D g, String realm, String shape) {
        return 60 + g.getFontMetrics().stringWidth(entry(realm, shape));
    }

    /** Legend rows: one realm per row when all its shapes fit, wrapped otherwise. */
    static int legendRows(Graphics2D g, List<String> realms, List<String> shapes) {
        int rows = 0;
        for (String realm : realms) {
            int cx = 0;
            rows++;
            for (String shape : shapes) {
                if (cx > 0 && cx + entryWidth(g, realm, shape) > W - 160) {
                    rows++;
                    cx = 0;
                }
                cx += entryWidth(g, realm, shape);
            }
        }
        return rows;
    }

    static double decadeDown(double v) {
        return Math.pow(10, Math.floor(Math.log10(Math.max(v, 1e-3))));
    }

    static double decadeUp(double v) {
        return Math.pow(10, Math.ceil(Math.log10(Math.max(v, 1e-3))));
    }

    static void panel(Graphics2D g, List<Phase> ps, String endpoint, List<String> realms, List<String> shapes, int x0, int y0, int w, int h,
            double[] xr, double[] yr) {
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 15));
        g.drawString(Report.endpointName(endpoint), x0, y0 - 8);
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 12));
        g.setColor(new Color(235, 235, 235));
        g.fillRect(x0, y0, w, h);
        // grid and ticks: 1, 2, 5 per decade
        for (double d = xr[0]; d <= xr[1] * 1.0001; d *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                double v = d * m;
                if (v > xr[1] * 1.0001) {
                    break;
                }
                int x = sx(v, x0, w, xr);
                g.setColor(m == 1 ? Color.WHITE : new Color(245, 245, 245));
                g.drawLine(x, y0, x, y0 + h);
                g.setColor(Color.DARK_GRAY);
                String t = AttackRun.fmt(v);
                g.drawString(t, x - g.getFontMetrics().stringWidth(t) / 2, y0 + h + 16);
            }
        }
        for (double d = yr[0]; d <= yr[1] * 1.0001; d *= 10) {
            for (int m : new int[] {1, 2, 5}) {
                double v = d * m;
                if (v > yr[1] * 1.0001) {
                    break;
                }
                int y = sy(v, y0, h, yr);
                g.setColor(m == 1 ? Color.WHITE : new Color(245, 245, 245));
                g.drawLine(x0, y, x0 + w, y);
                g.setColor(Color.DARK_GRAY);
                String t = v >= 1000 ? AttackRun.fmt(v / 1000) + " s" : AttackRun.fmt(v) + " ms";
                g.drawString(t, x0 - 6 - g.getFontMetrics().stringWidth(t), y + 4);
            }
        }
        g.setColor(Color.BLACK);
        g.drawString("offered attack rate, requests/s (log)", x0 + w / 2 - 100, y0 + h + 34);
        g.drawRect(x0, y0, w, h);
        Stroke dashed = new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {8, 6}, 0);
        for (String realm : realms) {
            double[] idle = Report.stats(Report.idles(ps, realm, endpoint).stream().mapToDouble(p -> p.p99).toArray());
            if (Double.isNaN(idle[0])) {
                continue;
            }
            int y = sy(2 * idle[0], y0, h, yr);
            g.setColor(color(realm));
            g.setStroke(dashed);
            g.drawLine(x0, y, x0 + w, y);
        }
        Map<String, List<Phase>> keys = Report.byKey(ps);
        for (int ri = 0; ri < realms.size(); ri++) {
            String realm = realms.get(ri);
            int dodge = (int) Math.round((ri - (realms.size() - 1) / 2.0) * 9);
            for (String shape : shapes) {
                List<List<Phase>> line = new ArrayList<>();
                for (List<Phase> k : keys.values()) {
                    Phase f = k.get(0);
                    if (f.realm.equals(realm) && f.endpoint.equals(endpoint) && f.shape.equals(shape) && k.stream().anyMatch(Phase::ran)) {
                        line.add(k);
                    }
                }
                line.sort((a, b) -> Double.compare(a.get(0).rate, b.get(0).rate));
                Color c = color(realm);
                g.setColor(c);
                g.setStroke(stroke(shape));
                int px = -1;
                int py = -1;
                for (List<Phase> k : line) {
                    int x = sx(k.get(0).rate, x0, w, xr) + dodge;
                    int y = sy(p99(k)[0], y0, h, yr);
                    if (px >= 0) {
                        g.drawLine(px, py, x, y);
                    }
                    px = x;
                    py = y;
                }
                g.setStroke(new BasicStroke(1.5f));
                for (List<Phase> k : line) {
                    double[] st = p99(k);
                    int x = sx(k.get(0).rate, x0, w, xr) + dodge;
                    if (st[1] < st[2]) {
                        int top = sy(st[2], y0, h, yr);
                        int bottom = sy(st[1], y0, h, yr);
                        g.drawLine(x, top, x, bottom);
                        g.drawLine(x - 3, top, x + 3, top);
                        g.drawLine(x - 3, bottom, x + 3, bottom);
                    }
                    marker(g, shape, x, sy(st[0], y0, h, yr), allOk(k));
                }
            }
        }
        g.setStroke(new BasicStroke(1));
    }

    static Stroke stroke(String shape) {
        return switch (shape) {
            case "one" -> new BasicStroke(2.5f);
            case "spread" -> new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {12, 5}, 0);
            default -> new BasicStroke(2.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] {3, 4}, 0);
        };
    }

    /** Filled marker: every real user logged in; hollow: some did not. */
    static void marker(Graphics2D g, String shape, int x, int y, boolean allOk) {
        int r = 6;
        java.awt.Shape s = switch (shape) {
            case "one" -> new java.awt.geom.Ellipse2D.Double(x - r, y - r, 2 * r, 2 * r);
            case "spread" -> new java.awt.Rectangle(x - r, y - r, 2 * r, 2 * r);
            default -> new java.awt.Polygon(new int[] {x, x - r - 1, x + r + 1}, new int[] {y - r - 1, y + r, y + r}, 3);
        };
        if (allOk) {
            g.fill(s);
        } else {
            Color c = g.getColor();
            g.setColor(Color.WHITE);
            g.fill(s);
            g.setColor(c);
            g.draw(s);
        }
    }

    static void legend(Graphics2D g, List<String> realms, List<String> shapes, List<String> notes, int x, int y) {
        g.setFont(LEGEND);
        for (String realm : realms) {
            int cx = x;
            for (String shape : shapes) {
                if (cx > x && cx - x + entryWidth(g, realm, shape) > W - 160) {
                    cx = x;
                    y += 22;
                }
                g.setColor(color(realm));
                g.setStroke(stroke(shape));
                g.drawLine(cx, y, cx + 40, y);
                g.setStroke(new BasicStroke(1.5f));
                marker(g, shape, cx + 20, y, true);
                g.setColor(Color.BLACK);
                g.drawString(entry(realm, shape), cx + 48, y + 5);
                cx += entryWidth(g, realm, shape);
            }
            y += 22;
        }
        g.setColor(Color.DARK_GRAY);
        y += 12;
        for (String n : notes) {
            g.drawString(n, x, y);
            y += 18;
        }
        g.setStroke(new BasicStroke(1));
    }

    static int sx(double v, int x0, int w, double[] r) {
        return x0 + (int) Math.round(w * (Math.log10(v) - Math.log10(r[0])) / (Math.log10(r[1]) - Math.log10(r[0])));
    }

    static int sy(double v, int y0, int h, double[] r) {
        double c = Math.max(v, r[0]);
        return y0 + h - (int) Math.round(h * (Math.log10(c) - Math.log10(r[0])) / (Math.log10(r[1]) - Math.log10(r[0])));
    }
}
