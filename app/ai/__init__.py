"""AI (docs/ai.md), an engine with no URL of its own: the provider client, the generation and
translation runs and their sweep, the text of uploaded sources, the knowledge documents and
the assistant's retrieval. The panel's AI pages (`app/admin`) and the rider's assistant page
(`app/rider`) call it."""
