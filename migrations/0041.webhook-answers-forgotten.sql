-- The delivery log keeps an answer's HTTP status, never its body, and says why there was no
-- answer in words that do not tell an open port from a closed one (docs/webhooks.md#addresses):
-- it is read on the panel, and must not show what a machine of the internal network answered.
-- The attempts recorded before lose their bodies and error texts.
-- depends: 0034.webhook-event-facts

UPDATE webhook_deliveries
SET last_answer = CASE WHEN last_status IS NOT NULL THEN NULL
                       WHEN last_answer LIKE 'No answer within %' THEN 'timed out'
                       ELSE 'connection failed' END
WHERE last_answer IS NOT NULL;
