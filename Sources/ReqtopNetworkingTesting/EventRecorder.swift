// The bus EventRecorder moves here (a test-support library for code embedding the networking core).
