CREATE TABLE orders (id int);
INSERT INTO orders VALUES (1);
