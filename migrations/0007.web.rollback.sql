DROP TABLE admin_setup_tokens;
DROP TABLE sign_in_attempts;
DROP TABLE web_sessions;
DROP TABLE admins;
