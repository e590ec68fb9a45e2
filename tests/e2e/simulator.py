"""The running app's Converge simulator as a merchant sees it: its credentials (the PIN is
generated with the simulator's store, so a test reads it there, as an operator would read it
in Converge's back office) and its XML API over HTTP."""

from __future__ import annotations

from typing import Any

import httpx

from hotmeals.converge.simulator import parse_xmldata, render_txn
from hotmeals.converge.simulator_store import SimulatorStore, store_url_for
from tests.e2e.server import AppServer


def merchant_credentials(app: AppServer) -> dict[str, str]:
    store = SimulatorStore(store_url_for(app.env["DATABASE_URL"], app.data_dir))
    try:
        merchant, user, pin = store.merchant_credentials()
    finally:
        store.dispose()
    return {"ssl_merchant_id": merchant, "ssl_user_id": user, "ssl_pin": pin}


def xml_call(app: AppServer, credentials: dict[str, str], **fields: str) -> Any:
    """One processxml.do request on a connection of its own; the parsed <txn>, or the list of
    <txn> of a <txnlist>."""
    body = render_txn({**credentials, **fields})
    response = httpx.post(
        f"{app.base_url}/converge-sim/VirtualMerchantDemo/processxml.do",
        data={"xmldata": body},
        timeout=60,
    )
    response.raise_for_status()
    if response.text.startswith("<txnlist>"):
        import xml.etree.ElementTree as ET

        root = ET.fromstring(response.text)
        return [{child.tag: (child.text or "") for child in txn} for txn in root.findall("txn")]
    return parse_xmldata(response.text)
