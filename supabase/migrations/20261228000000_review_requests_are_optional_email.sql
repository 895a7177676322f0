-- Review requests (decision 0088) are an email members may turn off: a row of the preferences grid
-- (decision 0091), not a record of a booking or a payment that always goes.
update public.notification_types set email_optional = true where type = 'review_request';
