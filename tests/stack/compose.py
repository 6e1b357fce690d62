"""docker-compose.yml run as processes: the services' own commands and environment, read
from the file, with this machine standing in for the images.

- PostgreSQL and Redis: the machine's servers on 127.0.0.1; the compose URLs' hosts
  `postgres` and `redis` are replaced, each URL pointing at a fresh database of the test's.
- nginx: Debian's nginx with the file compose mounts (bench/front.py rewrites its marked
  upstream, port and paths).
- Services built from the Dockerfile: their `command` in this checkout, `python`, `gunicorn`
  and `celery` being this virtualenv's. One-shot services (what others wait for with
  `service_completed_successfully`) run to completion first, in `depends_on` order.
- Services of a profile (the executor) are started only when asked (`run_service`), as
  compose starts them only with `--profile`; a path of the container in their environment
  (a secret under /run/secrets, a volume) is replaced by one of the test's (`paths`).
"""

import os
import re
import shlex
import signal
import socket
import subprocess
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import requests
import yaml

from bench.front import nginx_front
from tests.anvil import free_port

ROOT = Path(__file__).resolve().parents[2]
COMPOSE = ROOT / "docker-compose.yml"
BIN = Path(sys.executable).parent
STAND_INS = {"postgres", "redis"}  # images whose service the machine's server replaces
_VARIABLE = re.compile(r"\$\{(\w+)(?:(:?[-?])([^}]*))?\}")


def interpolate(value: str, variables: dict) -> str:
    """Compose's ${VAR}, ${VAR:-default}, ${VAR:?error} (and $$ for a literal $)."""

    def one(match):
        name, operator, argument = match.groups()
        given = variables.get(name)
        if operator in (":?", "?") and not given:
            raise ValueError(f"compose needs {name}: {argument}")
        if operator in (":-", "-") and not given:
            return argument
        return given or ""

    return _VARIABLE.sub(one, value).replace("$$", "$")


def environment(service: dict, variables: dict) -> dict:
    env = service.get("environment") or {}
    if isinstance(env, list):
        env = dict(item.split("=", 1) for item in env)
    return {key: interpolate(str(value), variables) for key, value in env.items()}


def dependencies(service: dict) -> dict:
    depends = service.get("depends_on") or {}
    return {name: {"condition": "service_started"} for name in depends} if isinstance(
        depends, list) else depends


def start_order(services: dict) -> list[str]:
    """Every service after those it depends on (compose's order)."""
    order: list[str] = []

    def visit(name, path=()):
        if name in path:
            raise ValueError(f"depends_on cycle: {' -> '.join((*path, name))}")
        if name not in order:
            for dependency in dependencies(services[name]):
                visit(dependency, (*path, name))
            order.append(name)

    for name in services:
        visit(name)
    return order


def default_services(services: dict) -> dict:
    """What `docker compose up` starts: the services of no profile (the `monitoring`
    profile's Prometheus and Grafana start with `--profile monitoring` only, the reference
    executor with `--profile executor`)."""
    return {name: service for name, service in services.items() if not service.get("profiles")}


def one_shots(services: dict) -> set[str]:
    return {dependency for service in services.values()
            for dependency, spec in dependencies(service).items()
            if spec.get("condition") == "service_completed_successfully"}


def command(service: dict) -> list[str]:
    args = service["command"]
    args = shlex.split(args) if isinstance(args, str) else list(args)
    if args[0] in ("python", "gunicorn", "celery"):
        args[0] = str(BIN / args[0])
    return args


def replace_hosts(env: dict, urls: dict[str, str]) -> dict:
    """Each URL whose host is a stand-in service (`postgres`, `redis`) replaced by the test's
    own URL for that service (a database or Redis number of its own)."""
    out = {}
    for key, value in env.items():
        parts = urlsplit(value) if "://" in value else None
        if parts and parts.hostname in STAND_INS:
            value = urls[parts.hostname]
        out[key] = value
    return out


class Stack:
    """Start with `run()`; `url` is the published front; `stop()` ends every process."""

    def __init__(self, folder: Path, variables: dict, urls: dict[str, str], overrides: dict,
                 paths: dict[str, str] | None = None):
        self.folder, self.variables, self.urls, self.overrides = folder, variables, urls, overrides
        self.paths = paths or {}  # a container's path -> the test's
        self.compose = yaml.safe_load(COMPOSE.read_text())
        self.services = default_services(self.compose["services"])
        self.processes: dict[str, subprocess.Popen] = {}
        self.ports: dict[str, int] = {}
        self.exits = ExitStack()
        self.url = ""

    def env(self, name: str) -> dict:
        base = {key: os.environ[key] for key in ("PATH", "HOME", "LANG") if key in os.environ}
        service = self.compose["services"][name]  # a profile's too (run_service)
        env = replace_hosts(environment(service, self.variables), self.urls)
        if "PROMETHEUS_MULTIPROC_DIR" in env:  # a path of the container: one of the test's
            env["PROMETHEUS_MULTIPROC_DIR"] = str(self.folder / f"{name}-prometheus")
        env = {key: self.paths.get(value, value) for key, value in env.items()}
        return {**base, **env, **self.overrides}

    def log(self, name: str):
        return open(self.folder / f"{name}.log", "a")

    def run_once(self, name: str) -> None:
        done = subprocess.run(command(self.services[name]), cwd=ROOT, env=self.env(name),
                              stdout=self.log(name), stderr=subprocess.STDOUT, timeout=120)
        if done.returncode != 0:
            raise AssertionError(f"one-shot {name} failed:\n{self.tail(name)}")

    def start(self, name: str) -> None:
        service = self.services[name]
        if name in STAND_INS:
            return
        if "command" not in service and service.get("image", "").startswith("nginx"):
            self.start_nginx(name, service)
            return
        env = self.env(name)
        if name == "web":  # its port, made free (gunicorn.conf.py reads GUNICORN_BIND)
            self.ports[name] = free_port()
            env["GUNICORN_BIND"] = f"127.0.0.1:{self.ports[name]}"
        self.processes[name] = subprocess.Popen(
            command(service), cwd=ROOT, env=env, stdout=self.log(name),
            stderr=subprocess.STDOUT, start_new_session=True)

    def start_nginx(self, name: str, service: dict) -> None:
        [mount] = [v for v in service["volumes"] if v.split(":")[1] == "/etc/nginx/nginx.conf"]
        assert (ROOT / mount.split(":")[0]).resolve() == (ROOT / "deploy/nginx.conf").resolve()
        upstream = next(dep for dep in dependencies(service) if "web" in dep)
        self.wait_for_port(upstream)
        port = self.exits.enter_context(nginx_front(self.ports[upstream], log=self.log(name)))
        self.ports[name] = port
        self.url = f"http://127.0.0.1:{port}"

    def wait_for_port(self, name: str, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                requests.get(f"http://127.0.0.1:{self.ports[name]}/healthz", timeout=2)
                return
            except requests.RequestException:
                if self.processes[name].poll() is not None or time.monotonic() > deadline:
                    raise AssertionError(f"{name} did not start:\n{self.tail(name)}") from None
                time.sleep(0.2)

    def run(self, after_one_shots=None) -> "Stack":
        order, once = start_order(self.services), one_shots(self.services)
        for name in order:
            if name in once:
                self.run_once(name)
        if after_one_shots:
            after_one_shots()
        for name in order:
            if name not in once:
                self.start(name)
        assert self.url, "no nginx front in docker-compose.yml"
        return self

    def run_service(self, name: str, *args: str, env: dict | None = None,
                    timeout: float = 120) -> subprocess.CompletedProcess:
        """A service of a profile run to its end: its command (with `args`) and
        environment."""
        return subprocess.run([*command(self.compose["services"][name]), *args], cwd=ROOT,
                              env={**self.env(name), **(env or {})}, capture_output=True,
                              text=True, timeout=timeout)

    def exec(self, service: str, args: list[str], env: dict | None = None) -> str:
        """`docker compose exec SERVICE ...`: the command with the service's environment."""
        args = [str(BIN / args[0]) if args[0] == "python" else args[0], *args[1:]]
        done = subprocess.run(args, cwd=ROOT, env={**self.env(service), **(env or {})},
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, f"{' '.join(args)}:\n{done.stdout}{done.stderr}"
        return done.stdout

    def healthcheck(self, name: str) -> subprocess.CompletedProcess:
        """The service's compose health check, run as the container would run it."""
        test = self.services[name]["healthcheck"]["test"]
        kind, args = test[0], test[1:]
        if kind == "CMD-SHELL":
            args = ["sh", "-c", args[0].replace("$$", "$")]
        args = [str(BIN / args[0]) if args[0] in ("python", "celery") else args[0], *args[1:]]
        env = {**self.env(name), "HOSTNAME": socket.gethostname(), "PATH": f"{BIN}:"
               + os.environ.get("PATH", "")}
        return subprocess.run(args, cwd=ROOT, env=env, capture_output=True, text=True,
                              timeout=60)

    def tail(self, name: str, lines: int = 40) -> str:
        path = self.folder / f"{name}.log"
        return "\n".join(path.read_text().splitlines()[-lines:]) if path.exists() else ""

    def alive(self) -> dict[str, int | None]:
        return {name: process.poll() for name, process in self.processes.items()}

    def stop(self) -> None:
        self.exits.close()
        for process in reversed(self.processes.values()):
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in self.processes.values():
            try:
                process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def database_url(base: str, name: str) -> str:
    parts = urlsplit(base)
    return urlunsplit(parts._replace(path=f"/{name}"))
