DROP TABLE rider_import_rejects;
DROP TABLE rider_imports;
