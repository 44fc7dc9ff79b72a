"""The deployment files validate offline (deploy/validate.py, also a CI step), and the
validator would notice a broken file."""

from __future__ import annotations

import importlib.util
import shutil
from pathlib import Path
from types import ModuleType

import yaml

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"


def _validator() -> ModuleType:
    spec = importlib.util.spec_from_file_location("deploy_validate", DEPLOY / "validate.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_compose_manifests_and_dockerfile_are_valid() -> None:
    validate = _validator()
    assert validate.check_compose() == []
    assert validate.check_manifests() == []
    assert validate.check_dockerfile() == []
    assert validate.main() == 0


def test_a_broken_compose_file_is_refused(tmp_path: Path) -> None:
    validate = _validator()
    data = yaml.safe_load((DEPLOY / "compose.yaml").read_text())
    data["services"]["worker"].pop("healthcheck")
    data["services"]["redis"]["image"] = "redis:latest"
    data["services"]["web"]["depends_on"] = ["migrate"]
    data["services"]["beat"]["restart"] = {"always": True}  # not a string: schema error
    broken = tmp_path / "compose.yaml"
    broken.write_text(yaml.safe_dump(data))
    problems = "\n".join(validate.check_compose(broken))
    assert "service worker has no healthcheck" in problems
    assert "redis:latest is not pinned" in problems
    assert "web does not wait for migrate" in problems
    assert "services/beat/restart" in problems


def test_a_manifest_with_an_unknown_field_is_refused(tmp_path: Path) -> None:
    validate = _validator()
    folder = tmp_path / "k8s"
    shutil.copytree(DEPLOY / "k8s", folder)
    web = list(yaml.safe_load_all((folder / "web.yaml").read_text()))
    web[0]["spec"]["template"]["spec"]["containers"][0]["livenessprobe"] = {}
    (folder / "web.yaml").write_text(yaml.safe_dump_all(web))
    relay = list(yaml.safe_load_all((folder / "relay.yaml").read_text()))
    relay[0]["spec"]["replicas"] = "two"
    (folder / "relay.yaml").write_text(yaml.safe_dump_all(relay))
    (folder / "beat.yaml").unlink()
    problems = "\n".join(validate.check_manifests(folder))
    assert "livenessprobe" in problems
    assert "replicas" in problems
    assert "no Deployment casino-beat" in problems
