#!/usr/bin/env python3
"""Browser-form requests for benchmarks/edge/run.sh (ENDPOINT=form), PARALLEL login sessions at a time.

    form.py <base> <realm> <count> <parallel> <tag> refusals   COUNT form POSTs, each a wrong password for a fresh
                                                                 name, every answer checked to be the gate's 429
    form.py <base> <realm> <count> <parallel> <tag> pages      COUNT GETs of the login page, each a new login
                                                                 session (no cookies), every answer checked to be 200

For refusals, each of the PARALLEL workers opens one login session (one GET) and then posts to the action URL of the
page it got back, as a browser would; the GETs are not counted. Prints the answers' status codes; exits 1 on any
other answer than the one expected.
"""
import collections
import html
import re
import sys
import threading

import requests

ACTION = re.compile(r'action="([^"]*login-actions/authenticate[^"]*)"')


def main():
    base, realm, count, parallel, tag, mode = sys.argv[1:7]
    count, parallel = int(count), int(parallel)
    auth = f"{base}/realms/{realm}/protocol/openid-connect/auth"
    params = {"client_id": "bench", "response_type": "code", "redirect_uri": "http://127.0.0.1/cb", "scope": "openid"}
    expected = 429 if mode == "refusals" else 200
    codes = collections.Counter()
    lock = threading.Lock()

    def insecure(session):
        # Keycloak marks its login cookies Secure; the benchmark talks plain HTTP to 127.0.0.1.
        for c in session.cookies:
            c.secure = False

    def worker(k, n):
        s = requests.Session()
        if mode == "pages":
            for _ in range(n):
                s.cookies.clear()
                r = s.get(auth, params=params)
                with lock:
                    codes[r.status_code] += 1
            return
        r = s.get(auth, params=params)
        insecure(s)
        action = html.unescape(ACTION.search(r.text).group(1))
        for i in range(n):
            r = s.post(action, data={"username": f"{tag}-{k}-{i}", "password": "wrong"}, allow_redirects=False)
            insecure(s)
            with lock:
                codes[r.status_code] += 1
            m = ACTION.search(r.text)
            if m is None:
                return
            action = html.unescape(m.group(1))

    per = [count // parallel + (1 if k < count % parallel else 0) for k in range(parallel)]
    threads = [threading.Thread(target=worker, args=(k, n)) for k, n in enumerate(per)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    print(" ".join(f"{n} {c}" for c, n in sorted(codes.items())))
    sys.exit(0 if codes == collections.Counter({expected: count}) else 1)


main()
