package dev.abusegate.keycloak.captcha;

import dev.abusegate.captcha.Altcha;
import dev.abusegate.captcha.CaptchaProvider;
import dev.abusegate.captcha.CaptchaSettings;
import dev.abusegate.captcha.SiteVerifier;
import dev.abusegate.captcha.VerificationBudget;
import dev.abusegate.engine.AbuseGate;
import dev.abusegate.engine.keys.AddressKeys;
import dev.abusegate.engine.store.CounterStoreFullException;
import dev.abusegate.keycloak.CaptchaConfig;
import dev.abusegate.keycloak.RealmSecrets;
import dev.abusegate.keycloak.Warnings;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.http.NameValuePair;
import org.apache.http.client.config.RequestConfig;
import org.apache.http.client.entity.UrlEncodedFormEntity;
import org.apache.http.client.methods.CloseableHttpResponse;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.message.BasicNameValuePair;
import org.jboss.logging.Logger;
import org.keycloak.connections.httpclient.HttpClientProvider;
import org.keycloak.forms.login.LoginFormsProvider;
import org.keycloak.headers.SecurityHeadersProvider;
import org.keycloak.models.KeycloakSession;
import org.keycloak.models.RealmModel;

/**
 * The captcha integration: verifies captcha solutions and prepares the widget for the 429 page. Each solution is
 * accepted once: the step that checks a password spends it ({@link #spend}) right before the check, and its
 * fingerprint is then remembered in the counter store until it could no longer be valid; nothing else writes a record. A vendor that
 * cannot be reached or answers garbage counts as unsolved and is logged at WARN; it never passes. One per server,
 * owned by the server's runtime with the verification budgets it keeps.
 */
public final class CaptchaService {

    private static final Logger LOG = Logger.getLogger(CaptchaService.class);
    private static final int TIMEOUT_MILLIS = 5_000;
    private static final int MAX_REPLY_BYTES = 64 * 1024;
    private static final long THIRD_PARTY_TOKEN_TTL_MILLIS = 600_000;
    /**
     * Added to a replay record's lifetime: another node whose clock is behind still sees an ALTCHA
     * challenge as valid for that long after this node's idea of its expiry.
     */
    private static final long REPLAY_SKEW_MILLIS = 60_000;
    /** Outgoing siteverify calls one node makes at once; more tokens are not sent (they count as unsolved). */
    static final int MAX_IN_FLIGHT = 32;
    /** Addresses whose verification budget one node tracks (about 100 bytes each). */
    private static final int MAX_BUDGET_ADDRESSES = 100_000;
    private final VerificationBudget budget = new VerificationBudget(MAX_IN_FLIGHT, MAX_BUDGET_ADDRESSES,
            CaptchaSettings.VERIFY_WINDOW_SECONDS * 1000);
    /**
     * Used-solution records one address may leave per window on this node (the realm's verification budget): the
     * records live in a table of their own, and this keeps one address from filling it with self-made ALTCHA
     * solutions (which cost it no vendor call). A solution past the budget counts as unsolved and leaves nothing.
     */
    private final VerificationBudget records = new VerificationBudget(Integer.MAX_VALUE, MAX_BUDGET_ADDRESSES,
            CaptchaSettings.VERIFY_WINDOW_SECONDS * 1000);
    /**
     * Solutions carried from an identity-first username page to its password step on this node, not yet spent, until
     * they expire: one passes one username page on this node (the used-solution table gets nothing from a step that
     * checks no password). Memory only; at its bound expired ones go, and if that is not enough, all of them (a
     * solution forgotten here can pass one more username page, where layers 1, 2 and 4 still count it, and is still
     * spent once at most).
     */
    private final Map<String, Long> taken = new ConcurrentHashMap<>();
    private static final int MAX_TAKEN = 100_000;
    private final SecureRandom random = new SecureRandom();
    private final AbuseGate gate;
    private final RealmSecrets secrets;
    private final Warnings warnings;

    /** The captcha integration of a server: its gate (used-solution records), its realms' keys and its warnings. */
    public CaptchaService(AbuseGate gate, RealmSecrets secrets, Warnings warnings) {
        this.gate = gate;
        this.secrets = secrets;
        this.warnings = warnings;
    }

    /**
     * Whether {@code token} is a valid solution for this realm's provider that is not used yet, without recording it:
     * the solution comes back, and the step spends it ({@link #spend}) only right before it checks a password. So an
     * attempt that checks no password (a missing one, a blocked account, a username page) writes no used-solution
     * record; of simultaneous attempts with one solution only one spends it. With {@code carried} (the identity-first
     * username page, which checks no password and carries the solution to the password step) it is also held on this
     * node until it is spent elsewhere or expires, so that it passes one username page. Null when it is not valid,
     * already used, already carried on this node, or the used-solution table cannot tell. Never throws.
     */
    public Solution verifiedUnspent(KeycloakSession session, RealmModel realm, CaptchaConfig cfg, String token, String remoteAddr,
                                    int ipv6Prefix, boolean carried) {
        Solution s = verify(session, realm, cfg, token, remoteAddr, ipv6Prefix);
        if (s == null) {
            return null;
        }
        try {
            if (gate.used(realm.getId(), s.digest())) {
                return null;
            }
        } catch (RuntimeException e) {
            LOG.debugf("Abuse gate: replay check unavailable in realm '%s'", realm.getName());
            return null;
        }
        return !carried || take(realm.getId() + '/' + s.note(), s.expiresAtMillis(), System.currentTimeMillis()) ? s : null;
    }

    /** Whether a solution is carried for the first time on this node (see {@link #taken}). */
    private boolean take(String key, long expiresAtMillis, long now) {
        if (taken.size() >= MAX_TAKEN) {
            taken.values().removeIf(expiry -> expiry <= now);
            if (taken.size() >= MAX_TAKEN) {
                taken.clear();
            }
        }
        Long before = taken.putIfAbsent(key, expiresAtMillis);
        return before == null || before <= now && taken.replace(key, before, expiresAtMillis);
    }

    /**
     * Records a verified solution as used: true on its first use, false on a replay, when the used-solution table is
     * full or when the store cannot tell. Never throws.
     */
    public boolean spend(RealmModel realm, Solution s) {
        try {
            // Replay guard: the record lives until the solution's real expiry plus clock skew between nodes.
            return gate.firstUse(realm.getId(), s.digest(), s.expiresAtMillis());
        } catch (CounterStoreFullException e) {
            // The used-solution table is full (a flood of solutions): toward caution, the solution counts as unsolved.
            warnings.warnEvery("captcha-used-full", "Abuse gate: the used-captcha table is full "
                    + "(a quarter of max-protected-entries); solutions count as unsolved until records expire "
                    + "(further warnings suppressed for 60 s)");
            return false;
        } catch (RuntimeException e) {
            // Without the store no solution can be proven fresh: treat it as unsolved.
            LOG.debugf("Abuse gate: replay check unavailable in realm '%s'", realm.getName());
            return false;
        }
    }

    /** A solution verified with its provider, identified by a digest, and the moment its used-record may end. */
    public static final class Solution {
        private final byte[] digest;
        private final long expiresAtMillis;

        Solution(byte[] digest, long expiresAtMillis) {
            this.digest = digest;
            this.expiresAtMillis = expiresAtMillis;
        }

        byte[] digest() {
            return digest.clone();
        }

        long expiresAtMillis() {
            return expiresAtMillis;
        }

        /** The solution as one line (for an authentication-session note): base64url digest, then the expiry. */
        public String note() {
            return Base64.getUrlEncoder().withoutPadding().encodeToString(digest) + '|' + expiresAtMillis;
        }

        /** A solution from {@link #note()}; null for anything else. */
        public static Solution ofNote(String note) {
            if (note == null) {
                return null;
            }
            int bar = note.indexOf('|');
            try {
                byte[] d = Base64.getUrlDecoder().decode(note.substring(0, Math.max(0, bar)));
                return bar < 0 || d.length < 16 ? null : new Solution(d, Long.parseLong(note.substring(bar + 1)));
            } catch (IllegalArgumentException e) {
                return null;
            }
        }
    }

    /** Verifies {@code token} with the realm's provider; the solution, or null. Records nothing. */
    private Solution verify(KeycloakSession session, RealmModel realm, CaptchaConfig cfg, String token, String remoteAddr,
                            int ipv6Prefix) {
        if (token == null || token.isBlank()) {
            return null;
        }
        long now = System.currentTimeMillis();
        String fingerprint;
        long ttlMillis;
        if (cfg.provider() == CaptchaProvider.ALTCHA) {
            byte[] key = altchaKey(session, realm, cfg);
            if (key == null) {
                return null;
            }
            Altcha.Verified v = Altcha.verify(key, cfg.altchaMaxNumber(), token.trim(), now / 1000);
            if (!v.ok()) {
                LOG.debugf("Abuse gate: ALTCHA solution refused in realm '%s': %s", realm.getName(), v.status());
                return null;
            }
            VerificationBudget.Answer go = records.tryStart(budgetKey(remoteAddr, ipv6Prefix), cfg.verifyBudget(), now);
            if (go != VerificationBudget.Answer.GO) {
                LOG.debugf("Abuse gate: ALTCHA solutions of an address past its budget in realm '%s'", realm.getName());
                return null;
            }
            records.finish();
            fingerprint = v.challenge();
            // The expiry is signed (Altcha), so the record outlives every moment the challenge verifies.
            ttlMillis = Math.max(1_000, v.expiresAtSeconds() * 1000 - now);
        } else {
            VerificationBudget.Answer go = budget.tryStart(budgetKey(remoteAddr, ipv6Prefix), cfg.verifyBudget(), now);
            if (go != VerificationBudget.Answer.GO) {
                // Not sent to the vendor: the token counts as unsolved, which counts nothing and escalates nothing.
                if (go == VerificationBudget.Answer.ADDRESS_BUDGET_SPENT) {
                    LOG.debugf("Abuse gate: captcha verification budget of an address spent in realm '%s'", realm.getName());
                } else {
                    warnings.warnEvery("captcha-budget:" + realm.getId(), "Abuse gate: " + cfg.provider().id()
                            + " verifications refused in realm '" + realm.getName() + "' (" + (go == VerificationBudget.Answer.TOO_MANY_IN_FLIGHT
                            ? MAX_IN_FLIGHT + " verifications already in flight on this node" : "too many addresses verifying at once")
                            + "); their captchas count as unsolved (further warnings suppressed for 60 s)");
                }
                return null;
            }
            SiteVerifier.Status s;
            try {
                s = SiteVerifier.verify(poster(session), cfg.effectiveVerifyUrl(), cfg.secret(), token.trim(), remoteAddr, cfg.minScore());
            } finally {
                budget.finish();
            }
            if (s == SiteVerifier.Status.UNREACHABLE || s == SiteVerifier.Status.GARBAGE) {
                warn(realm, cfg.provider(), s);
            }
            if (s != SiteVerifier.Status.VERIFIED) {
                return null;
            }
            fingerprint = token.trim();
            ttlMillis = THIRD_PARTY_TOKEN_TTL_MILLIS;
        }
        return new Solution(digest(cfg.provider().id() + ':' + fingerprint), now + ttlMillis + REPLAY_SKEW_MILLIS);
    }

    /** What the captcha page needs to show the widget; also opens the page's CSP for the vendor's frames. */
    public Map<String, Object> widget(KeycloakSession session, RealmModel realm, CaptchaConfig cfg, LoginFormsProvider form) {
        Map<String, Object> w = new HashMap<>();
        w.put("provider", cfg.provider().id());
        w.put("field", cfg.formField());
        w.put("siteKey", cfg.siteKey() == null ? "" : cfg.siteKey());
        Locale locale = session.getContext().resolveLocale(null);
        w.put("lang", locale == null ? "en" : locale.getLanguage());
        if (cfg.provider() == CaptchaProvider.ALTCHA) {
            String challenge = altchaChallenge(session, realm, cfg);
            if (challenge == null) {
                return null; // no key to sign with: no ALTCHA is offered
            }
            w.put("challengeJson", challenge);
        } else {
            form.addScript(cfg.provider().scriptUrl());
            SecurityHeadersProvider headers = session.getProvider(SecurityHeadersProvider.class);
            if (headers != null) {
                // Keycloak 26.7.3 keeps one value per response (each allowFrameSrc call replaces the last) and
                // appends it to frame-src: all of the vendor's origins go in one call.
                headers.options().allowFrameSrc(String.join(" ", cfg.provider().frameOrigins()));
            }
        }
        return w;
    }

    /** A fresh ALTCHA challenge as JSON (for the page); null when there is no key to sign it. */
    public String altchaChallenge(KeycloakSession session, RealmModel realm, CaptchaConfig cfg) {
        Altcha.Challenge c = altchaChallengeFields(session, realm, cfg);
        return c == null ? null : c.json();
    }

    /** A fresh ALTCHA challenge's fields (for API clients' JSON answers); null when there is no key to sign it. */
    public Altcha.Challenge altchaChallengeFields(KeycloakSession session, RealmModel realm, CaptchaConfig cfg) {
        byte[] key = altchaKey(session, realm, cfg);
        if (key == null) {
            return null;
        }
        long expires = System.currentTimeMillis() / 1000 + cfg.altchaExpirySeconds();
        return Altcha.challenge(key, cfg.altchaMaxNumber(), expires, random);
    }

    /**
     * The key that signs and verifies challenges: bound to the realm, the purpose and the difficulty, so a
     * challenge verifies only in the realm it was issued by (also when realms share a captcha secret), and one
     * issued by an easier step of the realm does not verify on a harder one. Null when no captcha secret is configured
     * and the realm has no HMAC key (never a key derived from public data).
     */
    private byte[] altchaKey(KeycloakSession session, RealmModel realm, CaptchaConfig cfg) {
        byte[] base;
        if (cfg.secret() != null) {
            base = cfg.secret().getBytes(StandardCharsets.UTF_8);
        } else {
            try {
                base = secrets.altchaKey(session, realm);
            } catch (RealmSecrets.NoRealmKey e) {
                warnings.warnNoKey(realm, e);
                return null;
            }
        }
        return Altcha.keyFor(base, realm.getId(), Altcha.SIGN_IN, cfg.altchaMaxNumber());
    }

    /** An address's budget is its network, as the layers count it: one IPv6 host cannot rotate through its subnet. */
    private static String budgetKey(String remoteAddr, int ipv6Prefix) {
        if (remoteAddr == null) {
            return "";
        }
        String canonical = AddressKeys.canonical(remoteAddr, ipv6Prefix);
        return canonical != null ? canonical : remoteAddr.length() > 64 ? remoteAddr.substring(0, 64) : remoteAddr;
    }

    private static SiteVerifier.FormPoster poster(KeycloakSession session) {
        return (url, fields) -> {
            HttpPost post = new HttpPost(url);
            post.setConfig(RequestConfig.custom().setConnectTimeout(TIMEOUT_MILLIS).setSocketTimeout(TIMEOUT_MILLIS)
                    .setConnectionRequestTimeout(TIMEOUT_MILLIS).build());
            List<NameValuePair> pairs = new ArrayList<>();
            fields.forEach((k, v) -> pairs.add(new BasicNameValuePair(k, v)));
            post.setEntity(new UrlEncodedFormEntity(pairs, StandardCharsets.UTF_8));
            try (CloseableHttpResponse response = session.getProvider(HttpClientProvider.class).getHttpClient().execute(post)) {
                String body = null;
                if (response.getEntity() != null) {
                    try (InputStream in = response.getEntity().getContent()) {
                        body = readCapped(in);
                    }
                }
                return new SiteVerifier.Reply(response.getStatusLine().getStatusCode(), body);
            }
        };
    }

    private static String readCapped(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buf = new byte[8192];
        int n;
        while ((n = in.read(buf)) > 0) {
            if (out.size() + n > MAX_REPLY_BYTES) {
                throw new IOException("captcha verification reply too large");
            }
            out.write(buf, 0, n);
        }
        return out.toString(StandardCharsets.UTF_8);
    }

    private void warn(RealmModel realm, CaptchaProvider provider, SiteVerifier.Status status) {
        warnings.warnEvery("captcha:" + realm.getId() + '/' + provider.id() + '/' + status,
                "Abuse gate: " + provider.id() + " verification failed in realm '" + realm.getName() + "' ("
                        + (status == SiteVerifier.Status.UNREACHABLE ? "endpoint unreachable or erroring" : "unexpected reply")
                        + "); the captcha counts as unsolved (further warnings of this kind for this realm suppressed for 60 s)");
    }

    private static byte[] digest(String s) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
    }
}
