#!/usr/bin/env python3
"""Load figures for `rasterkit serve` (issues 21 and 44), on loopback only, as ratios measured in one run.

    swift build -c release --product rasterkit --static-swift-stdlib   # from the repository root
    python3 Benchmarks/Serve/serve_load.py [--binary .build/release/rasterkit]

Needs wrk and nginx from Debian's packages: `apt-get install wrk nginx` (`make deps` installs both).
nginx is started from a scratch folder on a free loopback port with its own configuration (its
system service is never touched) and stopped at the end, like `rasterkit serve`.

Measures, with the same wrk settings (2 threads, 64 connections, 10 s) where the issue asks:
  1. warm hits: one PNG served from memory, against nginx serving the same bytes as a static file;
  2. 304 revalidations of that PNG (If-None-Match with its ETag), against the warm hits;
  3. 1,000 distinct cold keys over 64 connections: each drawn exactly once (the server's own
     draw counter, read from /metrics), errors, p50/p99 latency;
  4. 256 connections against a full render queue (--queue-limit 8, every request a new key):
     only 200 and 503 answers, no socket errors, the server's peak RSS;
  5. issue 44: the badge template of Examples/templates.yaml with 1,000 distinct parameter sets
     over 64 connections (each drawn once, errors, p50/p99 of a cold 1-line badge), then warm
     hits of one badge URL with parameters against nginx serving its bytes.
"""
import argparse
import concurrent.futures
import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
WRK = ["-t2", "-c64", "-d10s", "--latency"]


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_rasterkit(binary, *extra, manifest="Examples/showcase.yaml"):
    process = subprocess.Popen([binary, "serve", os.path.join(ROOT, manifest),
                                "--icons", os.path.join(ROOT, "Examples/icons"), "--no-cache",
                                "--host", "127.0.0.1", "--port", "0", *extra],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    line = process.stdout.readline()
    match = re.search(r"http://(127\.0\.0\.1:\d+)", line)
    if not match:
        process.kill()
        sys.exit(f"rasterkit serve did not start: {line!r}")
    return process, match.group(1)


def start_nginx(folder, static_root):
    port = free_port()
    config = f"""
daemon off; master_process on; worker_processes 2; pid {folder}/nginx.pid; error_log {folder}/error.log warn;
events {{ worker_connections 1024; }}
http {{ access_log off; client_body_temp_path {folder}/tmp; proxy_temp_path {folder}/tmp;
  fastcgi_temp_path {folder}/tmp; uwsgi_temp_path {folder}/tmp; scgi_temp_path {folder}/tmp;
  types {{ image/png png; }}
  server {{ listen 127.0.0.1:{port}; location / {{ root {static_root}; }} }} }}
"""
    with open(f"{folder}/nginx.conf", "w") as f:
        f.write(config)
    process = subprocess.Popen(["nginx", "-c", f"{folder}/nginx.conf", "-p", folder, "-e", f"{folder}/error.log"],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    for _ in range(500):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
            return process, f"127.0.0.1:{port}"
        except OSError:
            time.sleep(0.01)
    process.kill()
    sys.exit("nginx did not start")


def get(address, path, headers=None):
    host, port = address.split(":")
    connection = http.client.HTTPConnection(host, int(port), timeout=60)
    connection.request("GET", path, headers=headers or {})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response.status, dict(response.getheaders()), body


def wrk(url, *options, script=None, connections=None):
    arguments = ["wrk", *WRK, *options]
    if connections:
        arguments = [a if not a.startswith("-c") else f"-c{connections}" for a in arguments]
    if script:
        arguments += ["-s", script]
    output = subprocess.run(arguments + [url], capture_output=True, text=True, check=True).stdout
    rate = float(re.search(r"Requests/sec:\s+([\d.]+)", output).group(1))
    p99 = re.search(r"99%\s+([\d.]+\w+)", output)
    errors = re.search(r"Socket errors: (.*)", output)
    non2xx = re.search(r"Non-2xx or 3xx responses: (\d+)", output)
    return {"rate": rate, "p99": p99.group(1) if p99 else "?", "socket_errors": errors.group(1) if errors else "none",
            "non2xx": int(non2xx.group(1)) if non2xx else 0, "output": output}


def metric(address, name):
    text = get(address, "/metrics")[2].decode()
    match = re.search(rf"^{name} ([\d.e+]+)$", text, re.M)
    return float(match.group(1)) if match else None


def peak_rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return None


def cold_keys(address, count=1000, connections=64, paths=None):
    """`count` distinct renders (by default icons, each size a new key) over `connections` keep-alive connections."""
    paths = paths or [f"/icons/star.png?size={16 + index}&scale=2" for index in range(count)]
    latencies, errors = [], []
    host, port = address.split(":")

    def worker(share):
        connection = http.client.HTTPConnection(host, int(port), timeout=60)
        for path in share:
            start = time.perf_counter()
            try:
                connection.request("GET", path)
                response = connection.getresponse()
                response.read()
                if response.status != 200:
                    errors.append(response.status)
            except OSError as error:
                errors.append(str(error))
                connection = http.client.HTTPConnection(host, int(port), timeout=60)
            latencies.append(time.perf_counter() - start)
        connection.close()

    start = time.perf_counter()
    with concurrent.futures.ThreadPoolExecutor(connections) as pool:
        list(pool.map(worker, [paths[i::connections] for i in range(connections)]))
    elapsed = time.perf_counter() - start
    latencies.sort()
    return {"elapsed": elapsed, "errors": errors, "p50": latencies[len(latencies) // 2] * 1000,
            "p99": latencies[int(len(latencies) * 0.99) - 1] * 1000}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", default=os.path.join(ROOT, ".build/release/rasterkit"))
    arguments = parser.parse_args()
    for tool in ("wrk", "nginx"):
        if not shutil.which(tool):
            sys.exit(f"error: {tool} is missing: apt-get install wrk nginx (or make deps)")
    folder = tempfile.mkdtemp(prefix="rasterkit-serve-bench-")
    # nginx's workers drop to an unprivileged user when started as root: they must read the file.
    os.chmod(folder, 0o755)
    os.makedirs(f"{folder}/tmp")
    os.makedirs(f"{folder}/static")
    lua = os.path.join(os.path.dirname(os.path.abspath(__file__)), "statuses.lua")
    processes = []
    try:
        server, address = start_rasterkit(arguments.binary)
        processes.append(server)
        path = "/components/button-primary/normal.png?scale=2"
        status, headers, png = get(address, path)
        assert status == 200, status
        etag = headers["ETag"]
        with open(f"{folder}/static/button.png", "wb") as f:
            f.write(png)
        nginx, nginx_address = start_nginx(folder, f"{folder}/static")
        processes.append(nginx)
        assert get(nginx_address, "/button.png")[2] == png

        static = wrk(f"http://{nginx_address}/button.png")
        warm = wrk(f"http://{address}{path}")
        revalidated = wrk(f"http://{address}{path}", "-H", f"If-None-Match: {etag}")
        print(f"PNG: {len(png)} bytes; wrk -t2 -c64 -d10s on loopback, 2 cores shared by client and server")
        print(f"nginx static file     {static['rate']:>10.0f} req/s  p99 {static['p99']}")
        print(f"rasterkit warm hit    {warm['rate']:>10.0f} req/s  p99 {warm['p99']}  "
              f"ratio {warm['rate'] / static['rate']:.2f}x nginx (target >= 0.4)  non-2xx {warm['non2xx']}  sockets {warm['socket_errors']}")
        print(f"rasterkit 304         {revalidated['rate']:>10.0f} req/s  p99 {revalidated['p99']}  "
              f"ratio {revalidated['rate'] / warm['rate']:.2f}x warm hits (target >= 1)")

        draws_before = metric(address, "rasterkit_rasterizer_draws")
        cold = cold_keys(address)
        draws = metric(address, "rasterkit_rasterizer_draws") - draws_before
        print(f"1000 cold keys, 64 connections: {cold['elapsed']:.2f} s, drawn {draws:.0f} (target 1000), "
              f"errors {len(cold['errors'])}, p50 {cold['p50']:.1f} ms, p99 {cold['p99']:.1f} ms")
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)
        processes.remove(server)

        full, full_address = start_rasterkit(arguments.binary, "--queue-limit", "8")
        processes.append(full)
        # wrk's default 2 s timeout would count a slow admitted draw as a dropped connection:
        # this run asks whether connections are dropped, so each may take up to 30 s.
        overload = wrk(f"http://{full_address}/", "--timeout", "30s", script=lua, connections=256)
        counts = re.search(r"statuses: (.*)", overload["output"])
        print(f"256 connections, queue limit 8, every request a new key: {overload['rate']:.0f} req/s, "
              f"statuses {counts.group(1) if counts else '?'}, socket errors: {overload['socket_errors']}, "
              f"peak RSS {peak_rss_mib(full.pid):.0f} MiB")
        full.send_signal(signal.SIGTERM)
        print(f"SIGTERM: exited with {full.wait(timeout=30)}")
        processes.remove(full)

        templates, templates_address = start_rasterkit(arguments.binary, manifest="Examples/templates.yaml")
        processes.append(templates)
        badges = [f"/components/badge/flat.png?label=package-{index}&message=1.{index}.0&color=%23007EC6"
                  for index in range(1000)]
        draws_before = metric(templates_address, "rasterkit_rasterizer_draws")
        cold = cold_keys(templates_address, paths=badges)
        draws = metric(templates_address, "rasterkit_rasterizer_draws") - draws_before
        print(f"1000 badge parameter sets, 64 connections: {cold['elapsed']:.2f} s, drawn {draws:.0f} (target 1000), "
              f"errors {len(cold['errors'])} (target 0), p50 {cold['p50']:.1f} ms, p99 {cold['p99']:.1f} ms (target <= 200)")
        badge = "/components/badge/flat.png?label=coverage&message=93%25&color=orange"
        status, _, badge_png = get(templates_address, badge)
        assert status == 200, status
        with open(f"{folder}/static/badge.png", "wb") as f:
            f.write(badge_png)
        static_badge = wrk(f"http://{nginx_address}/badge.png")
        warm_badge = wrk(f"http://{templates_address}{badge}")
        print(f"badge warm hit        {warm_badge['rate']:>10.0f} req/s  p99 {warm_badge['p99']}  "
              f"ratio {warm_badge['rate'] / static_badge['rate']:.2f}x nginx {static_badge['rate']:.0f} req/s (target >= 0.4)  "
              f"non-2xx {warm_badge['non2xx']}")
        templates.send_signal(signal.SIGTERM)
        templates.wait(timeout=30)
        processes.remove(templates)
    finally:
        for process in processes:
            process.kill()
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    main()
