"""The service's own limits (its request bodies and its query pool), described in the shape of
:data:`lexicon.limits.LIMITS` and stated beside the library's wherever the API's limits are
written (its OpenAPI texts, the docs' limit table)."""

from __future__ import annotations

from lexicon import LIMITS, Limits

SERVICE_LIMITS: Limits = {
    ("lexicon.service.querypool", "MAX_QUERY_WORKERS"):
        ("queries (pattern, blanks, anagrams, extend, hooks, prefix) and Remik moves "
         "running at once", "—"),
    ("lexicon.service.querypool", "MAX_QUEUED_QUERIES"): ("queries waiting for a worker", "busy"),
    ("lexicon.service.querypool", "MAX_QUERY_WAIT_SECONDS"):
        ("seconds a query may wait for a worker", "busy"),
    ("lexicon.service.bodies", "MAX_BODY_BYTES"): ("bytes of a request body, batches aside",
                                           "body_too_large"),
    ("lexicon.service.bodies", "MAX_CHECK_BODY_BYTES"): ("bytes of a `POST /check` body",
                                                 "body_too_large"),
    ("lexicon.service.bodies", "MAX_VALID_BODY_BYTES"): ("bytes of a `POST /valid` body",
                                                 "body_too_large"),
    ("lexicon.service.bodies", "MAX_BODY_IDLE_SECONDS"): ("seconds a request body may send nothing",
                                                  "body_timeout"),
    ("lexicon.service.bodies", "MAX_BODY_SECONDS"): ("seconds a whole request body may take",
                                             "body_timeout"),
    ("lexicon.service.heads", "MAX_HEAD_SECONDS"):
        ("seconds a whole request head may take to arrive; the connection is then closed "
         "(`serve --head-timeout`)", "—"),
    ("lexicon.service.bodies", "MAX_BIG_BATCHES"):
        ("big `/check` or `/valid` batches (over 32 KiB or 256 KiB of body) answered at "
         "once; the others wait", "—"),
    ("lexicon.service.bodies", "MAX_BATCH_WAIT_SECONDS"): ("seconds a big batch waits for its turn",
                                                   "too_many_batches"),
}

#: every limit a request to the service is held to: the library's, then the service's
ALL_LIMITS: Limits = {**LIMITS, **SERVICE_LIMITS}
