"""Offline validation of the deployment files (CI step "deploy"; no Docker, no cluster).

- ``deploy/compose.yaml`` against the Compose Specification's JSON schema (vendored from
  github.com/compose-spec/compose-spec, ``deploy/schema/compose-spec.json``), plus the
  house rules: every service has a healthcheck, every image is pinned, web waits for the
  one-shot migrate job, the service runs as the restricted role ``casino_app``;
- every manifest in ``deploy/k8s/`` with kubernetes-validate (strict: unknown fields are
  errors) for Kubernetes ``K8S_VERSION``, plus: pinned images and the expected objects
  (Deployments web, relay x2, worker, beat; the migrate Job; Service; Ingress; HPA; PDB);
- ``deploy/Dockerfile``: pinned base images.

Usage: ``uv run python deploy/validate.py`` (exit status 1 and one line per problem).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import jsonschema
import kubernetes_validate
import yaml

DEPLOY = Path(__file__).resolve().parent
K8S_VERSION = "1.30.0"
_PINNED = re.compile(r"^[\w./-]+(:[\w.-]+|@sha256:[0-9a-f]{64})$")


def _pinned(image: str) -> bool:
    return bool(_PINNED.match(image)) and not image.endswith(":latest")


def check_compose(path: Path = DEPLOY / "compose.yaml") -> list[str]:
    """Problems of the compose file (empty when valid)."""
    data = yaml.safe_load(path.read_text())
    schema = json.loads((DEPLOY / "schema" / "compose-spec.json").read_text())
    problems = [
        f"{path.name}: {'/'.join(map(str, e.absolute_path)) or '<root>'}: {e.message}"
        for e in jsonschema.Draft7Validator(schema).iter_errors(data)
    ]
    services: dict[str, Any] = data.get("services", {})
    for name, service in services.items():
        if "healthcheck" not in service:
            problems.append(f"{path.name}: service {name} has no healthcheck")
        image = service.get("image", "")
        if image and "build" not in service and not _pinned(image):  # ours: built here
            problems.append(f"{path.name}: service {name}: image {image} is not pinned")
    for needed in ("web", "relay", "relay-standby", "worker", "beat", "migrate", "db", "redis"):
        if needed not in services:
            problems.append(f"{path.name}: no service {needed}")
    web = services.get("web", {})
    depends = web.get("depends_on") or {}
    migrate_dep = depends.get("migrate", {}) if isinstance(depends, dict) else {}
    if migrate_dep.get("condition") != "service_completed_successfully":
        problems.append(f"{path.name}: web does not wait for migrate to complete")
    if "casino_app" not in str(web.get("environment", {}).get("DATABASE_URL", "")):
        problems.append(f"{path.name}: web does not run as the restricted role casino_app")
    return problems


def _objects(path: Path) -> list[dict[str, Any]]:
    return [doc for doc in yaml.safe_load_all(path.read_text()) if doc]


def _images(obj: dict[str, Any]) -> list[str]:
    spec = obj.get("spec", {})
    pod = spec.get("template", {}).get("spec", {}) if "template" in spec else {}
    return [c.get("image", "") for c in pod.get("containers", []) + pod.get("initContainers", [])]


def check_manifests(folder: Path = DEPLOY / "k8s", version: str = K8S_VERSION) -> list[str]:
    """Problems of the Kubernetes manifests (empty when valid)."""
    problems: list[str] = []
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for path in sorted(folder.glob("*.yaml")):
        for obj in _objects(path):
            kind, name = obj.get("kind", "?"), obj.get("metadata", {}).get("name", "?")
            found[(kind, name)] = obj
            try:
                kubernetes_validate.validate(obj, version, strict=True)
            except kubernetes_validate.ValidationError as error:
                where = "/".join(map(str, error.path))
                problems.append(f"{path.name}: {kind}/{name}: {where}: {error.message}")
            except kubernetes_validate.utils.SchemaNotFoundError as error:
                problems.append(f"{path.name}: {kind}/{name}: {error}")
            problems += [
                f"{path.name}: {kind}/{name}: image {image} is not pinned"
                for image in _images(obj)
                if not _pinned(image)
            ]
    expected = [
        ("Deployment", "casino-web"),
        ("Deployment", "casino-relay"),
        ("Deployment", "casino-worker"),
        ("Deployment", "casino-beat"),
        ("Job", "casino-migrate"),
        ("Service", "casino-web"),
        ("Ingress", "casino"),
        ("HorizontalPodAutoscaler", "casino-web"),
        ("PodDisruptionBudget", "casino-web"),
    ]
    problems += [f"k8s: no {kind} {name}" for kind, name in expected if (kind, name) not in found]
    relay = found.get(("Deployment", "casino-relay"), {})
    if relay and not (
        isinstance(replicas := relay["spec"].get("replicas", 1), int) and replicas >= 2
    ):
        problems.append("k8s: the relay needs a standby (replicas >= 2)")
    beat = found.get(("Deployment", "casino-beat"), {})
    if beat and beat["spec"].get("replicas", 1) != 1:  # two beats would fire every sweep twice
        problems.append("k8s: exactly one beat")
    return problems


def check_dockerfile(path: Path = DEPLOY / "Dockerfile") -> list[str]:
    """Problems of the Dockerfile: every ``FROM`` image pinned to a version."""
    images = re.findall(r"^FROM\s+(\S+)", path.read_text(), flags=re.MULTILINE)
    return [
        f"Dockerfile: base image {image} is not pinned" for image in images if not _pinned(image)
    ]


def main() -> int:
    problems = check_compose() + check_manifests() + check_dockerfile()
    for problem in problems:
        print(problem)
    manifests = len(list((DEPLOY / "k8s").glob("*.yaml")))
    print(f"deploy: compose.yaml and {manifests} manifest files: {len(problems)} problems")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
