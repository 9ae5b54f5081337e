// Setup of the PostgreSQL test project: every test service gets a fresh PostgreSQL database.
process.env.TEST_PROVIDER = "postgresql";
