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
import javax.imageio.ImageIO;

/**
 * Real users' p99 against the offered attack rate, log-log, one panel per endpoint, one line per realm and attack
 * shape; the dashed lines are twice each realm's idle p99. Drawn with AWT (headless) into a PNG.
 */
final class Plot {

    static final int W = 1400;
    static final int H = 660;
    static final Color STOCK = new Color(200, 60, 40);
    static final Color GATED = new Color(30, 100, 200);
    static final Color SHIELDED = new Color(40, 150, 70);

    static Color color(String realm) {
        return switch (realm) {
            case "stock" -> STOCK;
            case "shielded" -> SHIELDED;
            default -> GATED;
        };
    }

    private Plot() {
    }

    static void write(List<Phase> ps, Path png) throws IOException {
        System.setProperty("java.awt.headless", "true");
        BufferedImage img = new BufferedImage(W, H, BufferedImage.TYPE_INT_RGB);
        Graphics2D g = img.createGraphics();
        g.setRenderingHint(RenderingHints.KEY_ANTIALIASING, RenderingHints.VALUE_ANTIALIAS_ON);
        g.setRenderingHint(RenderingHints.KEY_TEXT_ANTIALIASING, RenderingHints.VALUE_TEXT_ANTIALIAS_ON);
        g.setColor(Color.WHITE);
        g.fillRect(0, 0, W, H);
        g.setColor(Color.BLACK);
        g.setFont(new Font(Font.SANS_SERIF, Font.BOLD, 17));
        g.drawString("Real users' p99 login latency under attack: stock Keycloak 26.7.3 vs the abuse gate (one run, 2-core machine)", 30, 28);
        List<String> endpoints = new ArrayList<>(Report.values(ps, p -> p.endpoint));
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
            panel(g, ps, endpoints.get(i), 70 + i * panelW, 60, panelW - 60, H - 230, xr, yr);
        }
        legend(g, Report.realms(ps), 70, H - 110);
        g.dispose();
        Files.createDirectories(png.toAbsolutePath().getParent());
        ImageIO.write(img, "png", png.toFile());
    }

    static double decadeDown(double v) {
        return Math.pow(10, Math.floor(Math.log10(Math.max(v, 1e-3))));
    }

    static double decadeUp(double v) {
        return Math.pow(10, Math.ceil(Math.log10(Math.max(v, 1e-3))));
    }

    static void panel(Graphics2D g, List<Phase> ps, String endpoint, int x0, int y0, int w, int h, double[] xr, double[] yr) {
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
        for (String realm : Report.realms(ps)) {
            Phase idle = Report.idle(ps, realm, endpoint);
            if (idle == null) {
                continue;
            }
            int y = sy(2 * idle.p99, y0, h, yr);
            g.setColor(color(realm));
            g.setStroke(dashed);
            g.drawLine(x0, y, x0 + w, y);
            g.setStroke(new BasicStroke(1));
            g.drawString("2x idle p99, " + realm, x0 + 6, y - 4);
        }
        for (String realm : Report.realms(ps)) {
            for (String shape : new String[] {"one", "spread", "v6"}) {
                List<Phase> line = Report.line(ps, realm, endpoint, shape);
                Color c = color(realm);
                g.setColor(c);
                g.setStroke(stroke(shape));
                int px = -1;
                int py = -1;
                for (Phase p : line) {
                    if (!p.ran()) {
                        continue;
                    }
                    int x = sx(p.rate, x0, w, xr);
                    int y = sy(p.p99, y0, h, yr);
                    if (px >= 0) {
                        g.drawLine(px, py, x, y);
                    }
                    px = x;
                    py = y;
                }
                g.setStroke(new BasicStroke(1.5f));
                for (Phase p : line) {
                    if (p.ran()) {
                        marker(g, shape, sx(p.rate, x0, w, xr), sy(p.p99, y0, h, yr), p.realOk == p.realN);
                    }
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

    static void legend(Graphics2D g, List<String> realms, int x, int y) {
        g.setFont(new Font(Font.SANS_SERIF, Font.PLAIN, 13));
        int cx = x;
        for (String realm : realms) {
            for (String shape : new String[] {"one", "spread", "v6"}) {
                g.setColor(color(realm));
                g.setStroke(stroke(shape));
                g.drawLine(cx, y, cx + 40, y);
                g.setStroke(new BasicStroke(1.5f));
                marker(g, shape, cx + 20, y, true);
                g.setColor(Color.BLACK);
                String t = realm + ", " + Report.shapeName(shape);
                g.drawString(t, cx + 48, y + 5);
                cx += 60 + g.getFontMetrics().stringWidth(t);
                if (cx > W - 330) { // the next entry would not fit: a new row
                    cx = x;
                    y += 22;
                }
            }
        }
        g.setColor(Color.DARK_GRAY);
        g.drawString("Hollow marker: not every real user logged in. Dashed: twice the realm's idle p99. Points stop where a line "
                + "was already saturated (higher rates not run).", x, y + 30);
        g.drawString("Real users: one login every 250 ms, each another user from another address; asked for a captcha, they solve it "
                + "(the solving is in their latency).", x, y + 48);
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
