"""Drives the official Python client (kubernetes) against a Keel API server for the tests.

Usage: python3 events_client.py <kubeconfig> <operation> '<json arguments>'

Prints one JSON document: {"ok": true, "value": ...} when the client call succeeded, or
{"ok": false, "status": ..., "reason": ..., "body": ...} as the client's ApiException reports it.
The watch operation prints one JSON line per event instead, and stops after the first DELETED.
Typed calls use the generated API classes (EventsV1Api, CoreV1Api); merge patches and
server-side apply, which the generated PATCH methods cannot send, use the dynamic client.
"""

import datetime
import json
import sys

from kubernetes import client, config, dynamic, watch
from kubernetes.client.rest import ApiException

KUBECONFIG, OPERATION = sys.argv[1], sys.argv[2]
ARGS = json.loads(sys.argv[3]) if len(sys.argv) > 3 else {}

config.load_kube_config(config_file=KUBECONFIG)
api_client = client.ApiClient()
events = client.EventsV1Api(api_client)
core = client.CoreV1Api(api_client)


def plain(obj):
    """A model as the client serializes it (camelCase JSON)."""
    return api_client.sanitize_for_serialization(obj)


def new_event(a):
    """A typed events.k8s.io/v1 Event; eventTime is a datetime the client formats itself."""
    return client.EventsV1Event(
        metadata=client.V1ObjectMeta(name=a["name"], labels=a.get("labels")),
        event_time=datetime.datetime(2024, 5, 1, 10, 0, 0, a.get("micros", 123456), tzinfo=datetime.timezone.utc),
        action="Scheduled",
        reason=a.get("reason", "Started"),
        type=a.get("type", "Normal"),
        reporting_controller="keel.io/python",
        reporting_instance="python-1",
        regarding=client.V1ObjectReference(kind="Pod", namespace=a["namespace"], name="pod-1"),
        note=a.get("note", "from python"),
    )


def apply_config(a):
    return {
        "apiVersion": "events.k8s.io/v1",
        "kind": "Event",
        "metadata": {"name": a["name"], "namespace": a["namespace"], "labels": a.get("labels", {})},
        "eventTime": "2024-05-01T10:00:00.000000Z",
        "action": "Applied",
        "reason": "ServerSide",
        "type": "Normal",
        "reportingController": "keel.io/python",
        "reportingInstance": "python-1",
        "regarding": {"kind": "Pod", "namespace": a["namespace"], "name": "pod-1"},
    }


def dynamic_events():
    dyn = dynamic.DynamicClient(api_client)
    return dyn, dyn.resources.get(api_version="events.k8s.io/v1", kind="Event")


def list_names(result):
    return {
        "names": [i.metadata.name for i in result.items],
        "continue": result.metadata._continue,
        "resourceVersion": result.metadata.resource_version,
    }


def run(a):
    ns = a.get("namespace")
    if OPERATION == "create":
        return plain(events.create_namespaced_event(ns, new_event(a), dry_run=a.get("dryRun")))
    if OPERATION == "create_core":
        ev = client.CoreV1Event(
            metadata=client.V1ObjectMeta(name=a["name"]),
            involved_object=client.V1ObjectReference(kind="Pod", namespace=ns, name="pod-1"),
            reason="Pulled",
            message="image pulled",
            type="Normal",
            count=1,
        )
        return plain(core.create_namespaced_event(ns, ev))
    if OPERATION == "get":
        return plain(events.read_namespaced_event(a["name"], ns))
    if OPERATION == "list":
        opts = {k: v for k, v in a.items() if k in ("label_selector", "field_selector", "limit", "_continue")}
        if ns is None:
            return list_names(events.list_event_for_all_namespaces(**opts))
        return list_names(events.list_namespaced_event(ns, **opts))
    if OPERATION == "list_core":
        return list_names(core.list_namespaced_event(ns))
    if OPERATION == "replace":
        current = events.read_namespaced_event(a["name"], ns)
        current.metadata.labels = a["labels"]
        if "resourceVersion" in a:
            current.metadata.resource_version = a["resourceVersion"]
        return plain(events.replace_namespaced_event(a["name"], ns, current))
    if OPERATION == "patch":
        # A dict goes out as a strategic merge patch, a list as a JSON patch (the client decides).
        return plain(events.patch_namespaced_event(a["name"], ns, a["patch"]))
    if OPERATION == "merge_patch":
        dyn, res = dynamic_events()
        out = dyn.patch(res, a["patch"], name=a["name"], namespace=ns, content_type="application/merge-patch+json")
        return out.to_dict()
    if OPERATION == "apply":
        dyn, res = dynamic_events()
        out = dyn.server_side_apply(
            res,
            json.dumps(apply_config(a)),
            name=a["name"],
            namespace=ns,
            field_manager=a["manager"],
            force_conflicts=a.get("force"),
            dry_run=a.get("dryRun"),
        )
        return out.to_dict()
    if OPERATION == "delete":
        return plain(events.delete_namespaced_event(a["name"], ns, dry_run=a.get("dryRun")))
    if OPERATION == "delete_configmap":
        # The garbage collector's options: propagation_policy (or the legacy orphan_dependents).
        opts = {k: a[k] for k in ("propagation_policy", "orphan_dependents") if k in a}
        return plain(core.delete_namespaced_config_map(a["name"], ns, **opts))
    if OPERATION == "delete_collection":
        events.delete_collection_namespaced_event(ns, label_selector=a.get("label_selector"))
        return list_names(events.list_namespaced_event(ns))
    raise SystemExit("unknown operation " + OPERATION)


def stream_watch(a):
    w = watch.Watch()
    for event in w.stream(events.list_namespaced_event, a["namespace"], timeout_seconds=a.get("timeout", 30)):
        obj = event["object"]
        line = {"type": event["type"], "name": obj.metadata.name, "model": type(obj).__name__,
                "labels": obj.metadata.labels}
        print(json.dumps(line), flush=True)
        if event["type"] == "DELETED":
            w.stop()


def main():
    if OPERATION == "watch":
        stream_watch(ARGS)
        return
    try:
        print(json.dumps({"ok": True, "value": run(ARGS)}))
    except ApiException as e:
        try:
            body = json.loads(e.body)
        except (TypeError, ValueError):
            body = e.body
        print(json.dumps({"ok": False, "status": e.status, "reason": e.reason, "body": body}))


main()
